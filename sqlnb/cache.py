"""A cache on disk of what sqlnb derives the same way in every process: the parsed ``sql/``
files and the text of DuckDB's macros. Like ``__pycache__``, it only saves time: an entry is
keyed by everything it is derived from, and a missing, unreadable or unwritable cache is no
error. It lives in ``$SQLNB_CACHE`` (``off`` turns it off), else ``$XDG_CACHE_HOME/sqlnb``
or ``~/.cache/sqlnb``.

Its entries are pickles, and unpickling runs code: a cache folder or entry that another user
owns, or that others than its owner may write (group or world), is never read nor written to
(:func:`ours`); sqlnb creates the folder for its user alone (mode 0700) and its entries 0600.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import stat
import tempfile
from pathlib import Path
from typing import Any


def folder() -> Path | None:
    """The cache's folder, or None when it is turned off."""
    chosen = os.environ.get("SQLNB_CACHE")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sqlnb"


def ours(path: Path | int) -> bool:
    """Whether ``path`` (or an open file descriptor) belongs to the current user and no one
    else may write to it: what sqlnb may read code-bearing entries from. (Where the system
    has no user ids, Windows, always.)"""
    if not hasattr(os, "getuid"):  # pragma: no cover - Windows
        return True
    try:
        found = os.stat(path)
    except OSError:
        return False
    return found.st_uid == os.getuid() and not found.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


@functools.cache
def source_stamp() -> str:
    """The sizes and times of sqlnb's own files (Python and SQL): part of the key of what the
    code derives, so that an edited checkout never reads a stale entry. Taken once per process
    (the process has read its code and templates by then: a later edit is the next one's)."""
    package = Path(__file__).resolve().parent
    return stamp([package, package / "_sql", package.parent / "sql"])


def stamp(roots: list[Path]) -> str:
    """A digest of the path, size and modification time of every ``.py``, ``.sql`` and ``.in``
    file under ``roots`` (``__pycache__`` folders skipped)."""
    found: list[str] = []
    for root in roots:
        for folder, subfolders, names in os.walk(root):
            subfolders[:] = [d for d in subfolders if d != "__pycache__"]
            for name in names:
                if name.endswith((".py", ".sql", ".in")):
                    path = os.path.join(folder, name)
                    info = os.stat(path)
                    found.append(f"{path}:{info.st_size}:{info.st_mtime_ns}")
    return hashlib.sha256("".join(sorted(found)).encode()).hexdigest()


def _path(key: str) -> Path | None:
    where = folder()
    if where is None:
        return None
    return where / (hashlib.sha256(key.encode()).hexdigest()[:32] + ".pickle")


def load(key: str) -> Any:
    """The value stored under ``key``, or None."""
    path = _path(key)
    if path is None or not ours(path.parent):
        return None
    try:  # the entry as opened (not a link) must be ours too
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as file:
            return pickle.load(file) if ours(file.fileno()) else None
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        return None


def store(key: str, value: Any) -> None:
    """Keep ``value`` under ``key`` (atomically: written aside, then renamed)."""
    path = _path(key)
    if path is None:
        return
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not ours(path.parent):
            return
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False) as file:
            pickle.dump(value, file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(file.name, path)
    except OSError:
        return
