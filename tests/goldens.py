"""Golden SQL per construct, as sqlglot's fixtures are: small files a review can read.

A *family* is what one command writes (``sqlnb sql train --kind bernoulli``, DuckDB's
macros, ...). Its SQL for a dialect is split into *pieces*, each a file
``tests/golden/<family>/<piece>/<dialect>.sql``: a statement (``create_models``,
``insert_classes``, ``classify``) and each common table expression of it (``jll``,
``posterior``), which the statement names by a line ``@<piece>``. The file
``tests/golden/<family>/<dialect>.sql`` is the whole script in order: the short statements
(``BEGIN``, ``DELETE``, ``SET``) as they are, a line ``@<piece>`` for each other one (or
``@tables/<piece>``: the CREATE of one of sqlnb's tables, the same in every script). Putting
every ``@<piece>`` line back gives the script byte for byte (:func:`join`), so a golden diff
names the construct that changed and the dialects it changed on.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

ROOT = Path(__file__).parent / "golden"
REGENERATE = "SQLNB_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden.py"

# A common table expression at the top level of a statement, as sqlglot prints it (pretty):
# "WITH name AS (" or "), name AS (" at the start of a line, its body indented below.
_CTE = re.compile(r"^(?:WITH|\),) (\S+) AS \($")
_CREATE = re.compile(
    r"^(?:CREATE (?:OR REPLACE )?(?:TEMPORARY |TEMP )?|CACHE )"  # (Spark: CACHE TABLE)
    r"(TABLE|VIEW|MACRO|FUNCTION|DICTIONARY|INDEX)(?: IF NOT EXISTS)? ([^\s(]+)"
)
_INSERT = re.compile(r"^INSERT (?:INTO|OVERWRITE TABLE) ([^\s(]+)")  # (Spark: OVERWRITE)
_PARAMETERS = re.compile(r"^\(([^)]*)\)", re.DOTALL)
_REFERENCE = re.compile(r"^@([a-z0-9_/]+)$")


def _short(name: str) -> str:
    """A table's or function's name as a file name: unquoted, without schema or ``sqlnb_``."""
    name = name.replace('"', "").replace("`", "").split(".")[-1]
    return re.sub(r"\W+", "_", name.removeprefix("sqlnb_").lower()).strip("_") or "unnamed"


def piece_name(text: str) -> str | None:
    """The piece a statement is (by its first line after a header comment, or the first after
    its common table expressions: Spark writes them before INSERT), or None for one kept in
    the script: an index, a DELETE, a DROP, and the copy a DELETE is on Spark."""
    lines = [line for line in text.split("\n") if not line.startswith("--")]
    heads = [0]
    if lines[0].startswith("WITH "):
        heads = [i for i, line in enumerate(lines) if _CREATE.match(line) or _INSERT.match(line)]
    for i in heads[:1]:
        created = _CREATE.match(lines[i])
        if created:
            kind, name = created.groups()
            if kind == "INDEX" or "__sqlnb_keep_" in name:
                return None
            if kind == "MACRO":
                return _short(name)
            if kind != "FUNCTION":
                return f"create_{_short(name)}"
            # an overload (PostgreSQL's, for other text types or an id type): its types
            rest = "\n".join(lines[i:])[created.end() :]
            found = _PARAMETERS.match(rest)
            types = [p.split()[-1] for p in found.group(1).split(",") if p.strip()] if found else []
            plain = all(t.upper() in ("TEXT", "STRING") for t in types)
            return _short(name) + ("" if plain else "_" + _short("_".join(types)))
        inserted = _INSERT.match(lines[i])
        if inserted:
            return f"insert_{_short(inserted.group(1))}"
    return None


class Split:
    """One family's SQL for one dialect, as its script and its pieces."""

    def __init__(self, shared: dict[str, str] | None = None) -> None:
        self.script: list[str] = []
        self.pieces: dict[str, str] = {}
        # pieces of another family (``tables/create_models``: its text), which a statement of
        # the same text names instead of a piece of its own
        self.shared = shared or {}

    def _add(self, name: str, text: str) -> str:
        """Store a piece under ``name`` (or ``name_2`` ...: the same text once); its name."""
        for n in range(1, 1000):
            candidate = name if n == 1 else f"{name}_{n}"
            if self.pieces.get(candidate, text) == text:
                self.pieces[candidate] = text
                return candidate
        raise AssertionError(f"too many pieces named {name}")

    def statement(self, text: str, name: str | None = None) -> None:
        """Add one statement's text (ending in ``;\\n``; a CREATE TABLE with its index)."""
        name = name or piece_name(text)
        if name is None:
            self.script.append(text)
            return
        for key, known in self.shared.items():
            if known == text and key.endswith("/" + name):
                self.script.append(f"@{key}\n")
                return
        lines = text.split("\n")
        out: list[str] = []
        i = 0
        while i < len(lines):
            out.append(lines[i])
            found = _CTE.match(lines[i])
            if found is None:
                i += 1
                continue
            end = i + 1
            while not lines[end].startswith(")"):
                end += 1
            body = "\n".join(lines[i + 1 : end]) + "\n"
            out.append("@" + self._add(_short(found.group(1)), body))
            i = end
        self.script.append("@" + self._add(name, "\n".join(out)) + "\n")

    def files(self, dialect: str) -> dict[str, str]:
        """Each file's path under the family's folder, and its text."""
        files = {f"{dialect}.sql": "".join(self.script)}
        for name, text in self.pieces.items():
            files[f"{name}/{dialect}.sql"] = text
        return files


def join(script: str, pieces: dict[str, str]) -> str:
    """The whole text again: each line ``@<piece>`` (or ``@<family>/<piece>``) replaced by the
    piece (recursively)."""
    out = []
    for line in script.split("\n"):
        found = _REFERENCE.match(line)
        if found and found.group(1) in pieces:
            out.append(join(pieces[found.group(1)], pieces).removesuffix("\n"))
        else:
            out.append(line)
    return "\n".join(out)


def stored(family: str, dialect: str) -> dict[str, str]:
    """The golden files of a family for a dialect (path under the family's folder: text)."""
    folder = ROOT / family
    found = {}
    if (folder / f"{dialect}.sql").exists():
        found[f"{dialect}.sql"] = (folder / f"{dialect}.sql").read_text("utf-8")
    for path in sorted(folder.glob(f"*/{dialect}.sql")):
        found[f"{path.parent.name}/{dialect}.sql"] = path.read_text("utf-8")
    return found


def write(family: str, dialect: str, files: dict[str, str]) -> None:
    """Write a family's files for a dialect and remove those it no longer has."""
    folder = ROOT / family
    for name in stored(family, dialect):
        if name not in files:
            (folder / name).unlink()
            if not any((folder / name).parent.iterdir()):
                (folder / name).parent.rmdir()
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, "utf-8")


def differences(family: str, files: dict[str, str], found: dict[str, str]) -> str:
    """A unified diff of each file that changed (missing, new or different), or ''."""
    out = []
    for name in sorted(set(files) | set(found)):
        old, new = found.get(name), files.get(name)
        if old == new:
            continue
        path = f"tests/golden/{family}/{name}"
        diff = difflib.unified_diff(
            (old or "").splitlines(keepends=True),
            (new or "").splitlines(keepends=True),
            path if old is not None else "/dev/null",
            path if new is not None else "/dev/null",
        )
        out.append("".join(diff))
    if not out:
        return ""
    return "".join(out) + f"\nIf the change is intended, regenerate the goldens: {REGENERATE}\n"
