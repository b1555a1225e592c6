"""sqlnb: Naive Bayes classifiers trained and applied inside SQL databases."""

from __future__ import annotations

__version__ = "0.1.0"

from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Labels, Table, Tokens
from sqlnb.model import (
    Model,
    Pruning,
    append,
    connect,
    drop,
    load,
    models,
    retune,
    train,
    tune,
)
from sqlnb.tokenizer import Docs, Tokenizer

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
    "retune",
    "train",
    "tune",
]
