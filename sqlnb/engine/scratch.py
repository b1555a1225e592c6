"""Scratch folders named after the process that made them (``sqlnb-<pid>-...``), so that what a
killed process left behind (kill -9 runs no clean-up) is removed by the next run that makes one
in the same place; and the names of scratch tables, which no user's table has.

>>> with folder() as made:
...     made.name.startswith(f"sqlnb-{os.getpid()}-")
True
>>> name("sqlnb_outcomes") == f"sqlnb_outcomes_{TOKEN}", fresh("t") != fresh("t")
(True, True)
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

# This process's mark on the scratch tables and views it makes (temporary ones mostly): random,
# so that a name sqlnb drops or replaces is never a user's (a table of theirs called
# sqlnb_outcomes survives evaluate), and two processes writing to one database do not meet.
TOKEN = secrets.token_hex(4)


def name(base: str) -> str:
    """The name of a scratch table of this process: ``base`` and :data:`TOKEN`."""
    return f"{base}_{TOKEN}"


def fresh(base: str) -> str:
    """A scratch table's name no other call gives (a real table, which other threads of this
    process or other processes may be making at the same time)."""
    return f"{base}_{secrets.token_hex(6)}"


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
