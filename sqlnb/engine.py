"""The one module that talks to databases.

A :class:`Database` holds a connection and its :class:`Dialect`: what differs between engines is
declared there as data (sqlglot's dialect name, the transaction statements, how to read a
column's type), never as forked copies of queries. Every statement goes through
:meth:`Database.execute` or :meth:`Database.fetch`, which transpile the tree, pass it to the
tracer, run it, and turn the engine's errors into :class:`~sqlnb.errors.SqlnbError`.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import sqlglot
from sqlglot import exp

from sqlnb.errors import SqlnbError

Row = tuple[Any, ...]


@dataclass(frozen=True)
class Dialect:
    """What one engine needs that the shared SQL cannot say."""

    name: str
    sqlglot: str
    begin: str | None = "BEGIN TRANSACTION"
    commit: str | None = "COMMIT"
    rollback: str | None = "ROLLBACK"
    # Scripts for engines sqlnb does not run (`sqlnb sql --dialect`) need only the first fields.
    runs: bool = False


DIALECTS: dict[str, Dialect] = {
    d.name: d
    for d in (
        Dialect("duckdb", "duckdb", runs=True),
        Dialect("sqlite", "sqlite", begin="BEGIN", runs=True),
        Dialect("postgres", "postgres", begin="BEGIN"),
        Dialect("spark", "spark", begin=None, commit=None, rollback=None),
        Dialect("bigquery", "bigquery", begin="BEGIN TRANSACTION", commit="COMMIT TRANSACTION"),
        Dialect("snowflake", "snowflake", begin="BEGIN TRANSACTION"),
        Dialect("trino", "trino", begin="START TRANSACTION"),
    )
}


def dialect(name: str) -> Dialect:
    """The dialect called ``name``; an unknown name is a clear error."""
    try:
        return DIALECTS[name]
    except KeyError:
        known = ", ".join(DIALECTS)
        raise SqlnbError(f"unknown dialect {name!r}: choose one of {known}") from None


def to_sql(tree: exp.Expr, dialect_name: str) -> str:
    """The tree as SQL text of a dialect; constructs the dialect cannot express raise."""
    try:
        return tree.sql(dialect=dialect_name, unsupported_level=sqlglot.ErrorLevel.RAISE)
    except sqlglot.errors.UnsupportedError as error:
        raise SqlnbError(f"cannot write this query for {dialect_name}: {error}") from None


def one_line(error: BaseException) -> str:
    """An engine's error message reduced to its first line."""
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


class Database:
    """A connection to one database, with its dialect, a tracer and progress reporting."""

    def __init__(self, connection: Any, dialect_name: str, *, path: str | None = None) -> None:
        self.connection = connection
        self.dialect = dialect(dialect_name)
        self.path = path
        self.tracer: Callable[[str], None] | None = None
        self.progress: Callable[[float], None] | None = None
        self._depth = 0

    # --- opening -------------------------------------------------------------------------

    @classmethod
    def connect(
        cls, target: Database | str | Path | Any, *, create: bool = False, read_only: bool = False
    ) -> Database:
        """Open a DuckDB file (the default), an ``sqlite:///`` URL or ``.sqlite`` file, or wrap an
        open DuckDB or sqlite3 connection. Without ``create`` a missing file is an error."""
        if isinstance(target, Database):
            return target
        if isinstance(target, duckdb.DuckDBPyConnection):
            return cls(_setup_duckdb(target), "duckdb")
        if isinstance(target, sqlite3.Connection):
            return cls(_setup_sqlite(target), "sqlite")
        if not isinstance(target, (str, Path)):
            raise SqlnbError(f"not a database or connection: {type(target).__name__}")
        text = str(target)
        if text.startswith("sqlite://"):
            path = text.removeprefix("sqlite://").removeprefix("/")
            return cls._open_sqlite(path, create=create)
        if text.endswith((".sqlite", ".sqlite3")):
            return cls._open_sqlite(text, create=create)
        if "://" in text:
            raise SqlnbError(f"unsupported database URL {text!r}: use a DuckDB path or sqlite:///")
        if text != ":memory:" and not create and not Path(text).exists():
            raise SqlnbError(f"database file {text!r} does not exist")
        try:
            connection = duckdb.connect(text, read_only=read_only)
        except duckdb.Error as error:
            raise SqlnbError(f"cannot open {text!r}: {one_line(error)}") from None
        return cls(_setup_duckdb(connection), "duckdb", path=text)

    @classmethod
    def _open_sqlite(cls, path: str, *, create: bool) -> Database:
        if path != ":memory:" and not create and not Path(path).exists():
            raise SqlnbError(f"database file {path!r} does not exist")
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        return cls(_setup_sqlite(connection), "sqlite", path=path)

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- running -------------------------------------------------------------------------

    def sql(self, tree: exp.Expr) -> str:
        return to_sql(tree, self.dialect.sqlglot)

    def execute(self, tree: exp.Expr | str) -> None:
        """Run one statement (a tree, or one of the dialect's own fixed statements)."""
        self._run(tree if isinstance(tree, str) else self.sql(tree), fetch=False)

    def fetch(self, tree: exp.Expr) -> list[Row]:
        """Run a query and return its rows."""
        return self._run(self.sql(tree), fetch=True)

    def fetch_dicts(self, tree: exp.Expr) -> list[dict[str, Any]]:
        names = [s.alias_or_name for s in tree.selects] if isinstance(tree, exp.Query) else []
        return [dict(zip(names, row)) for row in self.fetch(tree)]

    def relation(self, tree: exp.Expr) -> duckdb.DuckDBPyRelation:
        """A lazy DuckDB relation of a query (DuckDB only): ``.df()``, ``.pl()``, ``.arrow()``."""
        if self.dialect.name != "duckdb":
            raise SqlnbError("lazy relations need DuckDB; use fetch() on other engines")
        text = self.sql(tree)
        if self.tracer:
            self.tracer(text)
        try:
            relation: duckdb.DuckDBPyRelation = self.connection.sql(text)
        except duckdb.Error as error:
            raise SqlnbError(one_line(error), sql=text) from None
        return relation

    def _run(self, text: str, *, fetch: bool) -> list[Row]:
        if self.tracer:
            self.tracer(text)
        try:
            if self.dialect.name == "duckdb" and self.progress is not None:
                return self._run_duckdb_with_progress(text, fetch=fetch)
            cursor = self.connection.execute(text)
            return list(cursor.fetchall()) if fetch else []
        except (duckdb.Error, sqlite3.Error) as error:
            raise SqlnbError(one_line(error), sql=text) from None

    def _run_duckdb_with_progress(self, text: str, *, fetch: bool) -> list[Row]:
        """Run in a worker thread; report DuckDB's query progress; Ctrl-C interrupts the query."""
        result: dict[str, Any] = {}

        def work() -> None:
            try:
                cursor = self.connection.execute(text)
                result["rows"] = list(cursor.fetchall()) if fetch else []
            except BaseException as error:  # handed back to the calling thread
                result["error"] = error

        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(0.1)
                if worker.is_alive() and self.progress is not None:
                    self.progress(self.connection.query_progress())
        except KeyboardInterrupt:
            self.connection.interrupt()
            worker.join()
            raise
        if "error" in result:
            raise result["error"]
        rows: list[Row] = result["rows"]
        return rows

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """All statements inside commit together or not at all. Nested uses join the outer one."""
        if self._depth or self.dialect.begin is None:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self.execute(self.dialect.begin)
        self._depth += 1
        try:
            yield
        except BaseException:
            self._depth -= 1
            with contextlib.suppress(Exception):
                self._run(self.dialect.rollback or "ROLLBACK", fetch=False)
            raise
        self._depth -= 1
        self.execute(self.dialect.commit or "COMMIT")

    # --- looking at tables ---------------------------------------------------------------

    def columns(self, source: exp.Expr) -> dict[str, str]:
        """The columns of a table (node) or query and their SQL types (DuckDB spelling where
        the engine has no declared types); a missing table is a clear error."""
        query = source if isinstance(source, exp.Query) else exp.select("*").from_(source)
        probe = query.limit(0) if isinstance(query, exp.Select) else query
        text = self.sql(probe)
        try:
            if self.dialect.name == "duckdb":
                relation = self.connection.sql(text)
                return {name: str(t) for name, t in zip(relation.columns, relation.types)}
            cursor = self.connection.execute(text)
            return {d[0]: "" for d in cursor.description}
        except (duckdb.Error, sqlite3.Error) as error:
            raise SqlnbError(_missing(source, error), sql=text) from None

    def value_type(self, query: exp.Select, column_name: str) -> str:
        """The SQL type of a query's column; on SQLite, the storage class of its values."""
        types = self.columns(query)
        if self.dialect.name != "sqlite":
            return types[column_name]
        probe = exp.select(exp.func("typeof", exp.column(column_name, quoted=True))).from_(
            query.subquery("q")
        )
        rows = self.fetch(probe.where(exp.column(column_name, quoted=True).is_(exp.null()).not_()))
        kinds = {r[0] for r in rows}
        return (
            {"integer": "BIGINT", "real": "DOUBLE"}.get(kinds.pop(), "VARCHAR")
            if len(kinds) == 1
            else "VARCHAR"
        )

    def exists(self, table_node: exp.Table) -> bool:
        try:
            self.columns(table_node)
        except SqlnbError:
            return False
        return True


def _missing(source: exp.Expr, error: BaseException) -> str:
    if isinstance(source, exp.Table):
        name = ".".join(p.name for p in source.parts)
        message = one_line(error)
        if any(w in message.lower() for w in ("does not exist", "no such table", "not found")):
            return f"table {name!r} does not exist"
        return f"cannot read table {name!r}: {message}"
    return one_line(error)


def _setup_duckdb(connection: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    connection.execute("SET python_enable_replacements = false")
    connection.execute("SET enable_progress_bar = false")
    return connection


def _setup_sqlite(connection: sqlite3.Connection) -> sqlite3.Connection:
    import math

    # Python's sqlite3 may be built without math functions: supply the two sqlnb uses.
    def ln(x: float | None) -> float | None:
        if x is None or x <= 0:
            return None if x is None or x < 0 else float("-inf")
        return math.log(x)

    def exp_(x: float | None) -> float | None:
        return None if x is None else math.exp(x) if x < 709 else float("inf")

    try:
        connection.execute("SELECT ln(1), exp(0)")
    except sqlite3.OperationalError:
        connection.create_function("ln", 1, ln, deterministic=True)
        connection.create_function("exp", 1, exp_, deterministic=True)
    return connection


def script(statements: Sequence[exp.Expr | str], dialect_name: str) -> str:
    """Statements as one script of a dialect, each ended by ``;``."""
    d = dialect(dialect_name)
    parts = [s if isinstance(s, str) else to_sql(s, d.sqlglot) for s in statements]
    return "".join(f"{p};\n" for p in parts)
