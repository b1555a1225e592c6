"""sqlnb: Naive Bayes classifiers trained and applied inside SQL databases."""

from __future__ import annotations

from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.hyper import Hyperparameters, Pruning
from sqlnb.inputs import Docs, Labels, Table, Tokens
from sqlnb.macros import register_sqlite
from sqlnb.model import (
    Model,
    append,
    connect,
    drop,
    load,
    models,
    retune,
    train,
)
from sqlnb.tokenizer import Tokenizer
from sqlnb.tuning import tune
from sqlnb.version import __version__

__all__ = [
    "Database",
    "Docs",
    "Hyperparameters",
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
    "train",
    "tune",
]
