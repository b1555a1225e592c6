"""What an engine's SQL functions are (:class:`Form`), and which class is a database's: the
one its dialect names (``Dialect.functions``, "module:Class", imported when first used: a
DuckDB user imports no other engine's), never a branch on an engine's name. The classes are in
:mod:`sqlnb.functions.engines`.

Two forms score a text, both built once from the kinds' scoring form: rows (a join and a
GROUP BY: :mod:`sqlnb.functions.rows`, PostgreSQL's and Spark's functions, SQLite's) and lists
(DuckDB's lookup row, :mod:`sqlnb.functions.lists`; ClickHouse binds the same tree to its
dictionaries, :mod:`sqlnb.functions.clickhouse`)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, ClassVar, Protocol

from sqlglot import exp

if TYPE_CHECKING:
    from sqlnb.engine import Database
    from sqlnb.functions.shape import Shape

Statement = exp.Expr | str


class Form(Protocol):
    """An engine's SQL functions: the statements that write them for a database's
    :class:`Shape`, and what each write of a model changes besides."""

    # Whether the functions read each model's stored lookup row (DuckDB's: sqlnb functions)
    lookup_rows: ClassVar[bool]
    # Whether the functions branch by model (PostgreSQL's: Shape.models)
    by_model: ClassVar[bool]

    def functions(self, db: Database, shape: Shape) -> list[Statement]:
        """The statements that (re)write the functions for ``shape``."""
        ...

    def check(self, db: Database, shape: Shape) -> None:
        """Before the functions are rewritten for ``shape``: refuse (an SqlnbError) a rewrite
        that would break what a user built on them (PostgreSQL's views on sqlnb_classify)."""
        ...

    def where(self, db: Database) -> str:
        """Where the functions' text names the tables: a schema or a database ('' if none)."""
        ...

    def serves(self, db: Database, keys: list[str]) -> list[str]:
        """The :class:`Shape` keys the functions are built for, given this database's."""
        ...

    def stale(self, db: Database, model: str | None, record: exp.Table | None) -> list[Statement]:
        """What a write of ``model`` makes stale (and everything, where the functions'
        ``record``, if there is one, names another sqlnb's version)."""
        ...

    def outdated(self, db: Database) -> list[Statement]:
        """Before a rebuild: what another sqlnb left in a layout this one does not read."""
        ...

    def rows(self, db: Database, models: list[str] | None = None) -> list[Statement]:
        """The rows the functions read, written again for ``models`` (None: every model)."""
        ...


class Plain:
    """What most forms have: nothing but their functions (a base for :class:`Form`'s)."""

    lookup_rows: ClassVar[bool] = False
    by_model: ClassVar[bool] = False

    def check(self, db: Database, shape: Shape) -> None:
        return None

    def where(self, db: Database) -> str:
        return db.backend.schema or ""

    def serves(self, db: Database, keys: list[str]) -> list[str]:
        return keys

    def stale(self, db: Database, model: str | None, record: exp.Table | None) -> list[Statement]:
        return []

    def outdated(self, db: Database) -> list[Statement]:
        return []

    def rows(self, db: Database, models: list[str] | None = None) -> list[Statement]:
        return []


def of(db: Database) -> Form | None:
    """The database's form of SQL functions (the class its dialect names), or None."""
    if db.dialect.functions is None:
        return None
    module, _, name = db.dialect.functions.partition(":")
    form: type[Form] = getattr(importlib.import_module(module), name)
    return form()
