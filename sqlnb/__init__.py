"""sqlnb: Naive Bayes classifiers trained and applied inside SQL databases."""

from __future__ import annotations

__version__ = "0.1.0"

from sqlnb.engine import Database  # noqa: E402
from sqlnb.errors import SqlnbError  # noqa: E402
from sqlnb.inputs import Labels, Tokens  # noqa: E402
from sqlnb.model import Model, Params, connect, drop, load, models, train  # noqa: E402

__all__ = [
    "Database",
    "Labels",
    "Model",
    "Params",
    "SqlnbError",
    "Tokens",
    "__version__",
    "connect",
    "drop",
    "load",
    "models",
    "train",
]
