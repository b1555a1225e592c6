"""The documentation the tests read: the README (what a newcomer needs first) and the site's
pages under ``docs/`` (built by MkDocs; everything else moved there)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def page(name: str) -> str:
    """One page of the site, e.g. ``guides/usage.md``."""
    return (DOCS / name).read_text(encoding="utf-8")


def everything() -> str:
    """The README and every page of the site, one text."""
    pages = sorted(DOCS.rglob("*.md"))
    return "\n".join(p.read_text(encoding="utf-8") for p in [README, *pages])
