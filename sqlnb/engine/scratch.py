"""Scratch folders named after the process that made them (``sqlnb-<pid>-...``), so that what a
killed process left behind (kill -9 runs no clean-up) is removed by the next run that makes one
in the same place.

>>> with folder() as made:
...     made.name.startswith(f"sqlnb-{os.getpid()}-")
True
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path


@contextlib.contextmanager
def folder(where: Path | None = None, prefix: str = "sqlnb-") -> Iterator[Path]:
    """A new folder in ``where`` (default: the temporary folder), removed when the block ends;
    leftovers of dead processes there are removed first."""
    parent = Path(where or tempfile.gettempdir())
    sweep(parent, prefix)
    with tempfile.TemporaryDirectory(prefix=f"{prefix}{os.getpid()}-", dir=parent) as made:
        yield Path(made)


def sweep(parent: Path, prefix: str, suffixes: Sequence[str] = ("",)) -> None:
    """Remove the entries of ``parent`` named ``<prefix><pid>.<...><suffix>`` (or ``-``
    after the pid) whose process is gone."""
    try:
        entries = list(parent.iterdir())
    except OSError:
        return
    for entry in entries:
        name = entry.name
        if not name.startswith(prefix) or not name.endswith(tuple(suffixes)):
            continue
        found = re.match(r"(\d+)[.-]", name[len(prefix) :])
        if found is None or _alive(int(found.group(1))):  # this process's own too
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                entry.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True
