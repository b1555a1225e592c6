"""sqlnb: Naive Bayes classifiers trained and applied inside SQL databases.

The names below are imported when first used, so that ``import sqlnb`` (and the command line's
start, during which a Ctrl-C must still end in one line) costs next to nothing.
"""

from __future__ import annotations

import os
import signal
import sys

from sqlnb.errors import INTERRUPTED


def _interrupted_at_start(signum: int, frame: object) -> None:
    """Ctrl-C while the command line starts (before it can have touched anything)."""
    sys.stderr.write(INTERRUPTED)
    os._exit(130)


# Started as the command line (``sqlnb ...`` or ``python -m sqlnb ...``): a Ctrl-C from here
# until sqlnb.cli.main takes over is one line and exit code 130, not a traceback of imports.
# First thing, before any other import (``typing``'s took 5-20 ms, and a Ctrl-C in it was
# a traceback and exit -2 in tests/test_robustness.py on a loaded machine).
if os.path.basename(sys.argv[0] if sys.argv else "") == "sqlnb" or getattr(sys, "orig_argv", [])[
    1:3
] == ["-m", "sqlnb"]:
    signal.signal(signal.SIGINT, _interrupted_at_start)

import importlib  # noqa: E402
from typing import TYPE_CHECKING, Any  # noqa: E402

from sqlnb.version import __version__  # noqa: E402

if TYPE_CHECKING:
    from sqlnb.engine import Database
    from sqlnb.errors import SqlnbError
    from sqlnb.functions import register_sqlite, store_functions
    from sqlnb.inputs import Docs, Labels, Table, Tokens
    from sqlnb.model import Model, append, connect, drop, load, models, retune, train
    from sqlnb.pruning import Pruning
    from sqlnb.tokenizer import Tokenizer
    from sqlnb.tuning import tune

_WHERE = {
    "Database": "sqlnb.engine",
    "SqlnbError": "sqlnb.errors",
    "Pruning": "sqlnb.pruning",
    "Docs": "sqlnb.inputs",
    "Labels": "sqlnb.inputs",
    "Table": "sqlnb.inputs",
    "Tokens": "sqlnb.inputs",
    "register_sqlite": "sqlnb.functions",
    "store_functions": "sqlnb.functions",
    "Model": "sqlnb.model",
    "append": "sqlnb.model",
    "connect": "sqlnb.model",
    "drop": "sqlnb.model",
    "load": "sqlnb.model",
    "models": "sqlnb.model",
    "retune": "sqlnb.model",
    "train": "sqlnb.model",
    "Tokenizer": "sqlnb.tokenizer",
    "tune": "sqlnb.tuning",
}

__all__ = [
    "Database",
    "Docs",
    "Labels",
    "Model",
    "Pruning",
    "SqlnbError",
    "Table",
    "Tokenizer",
    "Tokens",
    "__version__",
    "append",
    "connect",
    "drop",
    "load",
    "models",
    "register_sqlite",
    "retune",
    "store_functions",
    "train",
    "tune",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'sqlnb' has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value
    return value
