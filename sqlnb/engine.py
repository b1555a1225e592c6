"""The one module that talks to databases.

A :class:`Database` holds a connection, a :class:`Backend` that runs text on it, and its
:class:`Dialect`: what differs between engines is declared there as data (sqlglot's dialect
name, the transaction statements, whether ``DELETE`` exists, how types are spelled), never as
forked copies of queries. Every statement goes through :meth:`Database.execute` or
:meth:`Database.fetch`, which transpile the tree, pass it to the tracer, run it, and turn the
engine's errors into :class:`~sqlnb.errors.SqlnbError`.
"""

from __future__ import annotations

import contextlib
import math
import re
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
    # False where DELETE is not supported on plain tables (Spark's file-based tables): a
    # DELETE becomes CREATE TABLE AS the rows to keep, DROP, RENAME.
    delete: bool = True


DIALECTS: dict[str, Dialect] = {
    d.name: d
    for d in (
        Dialect("duckdb", "duckdb"),
        Dialect("sqlite", "sqlite", begin="BEGIN"),
        Dialect("postgres", "postgres", begin="BEGIN"),
        Dialect("spark", "spark", begin=None, commit=None, rollback=None, delete=False),
        Dialect("bigquery", "bigquery", commit="COMMIT TRANSACTION"),
        Dialect("snowflake", "snowflake"),
        Dialect("trino", "trino", begin="START TRANSACTION"),
    )
}

# Engine type names, in DuckDB's spelling (label types are stored that way).
TYPE_NAMES = {
    "int2": "SMALLINT",
    "int4": "INTEGER",
    "int8": "BIGINT",
    "float4": "FLOAT",
    "float8": "DOUBLE",
    "numeric": "DECIMAL",
    "text": "VARCHAR",
    "varchar": "VARCHAR",
    "bpchar": "VARCHAR",
    "bool": "BOOLEAN",
    "uuid": "UUID",
    "date": "DATE",
    "timestamp": "TIMESTAMP",
    "tinyint": "TINYINT",
    "smallint": "SMALLINT",
    "int": "INTEGER",
    "bigint": "BIGINT",
    "float": "FLOAT",
    "double": "DOUBLE",
    "string": "VARCHAR",
    "boolean": "BOOLEAN",
}


def duckdb_type(name: str) -> str:
    """An engine's type name in DuckDB's spelling."""
    base = re.sub(r"\(.*\)$", "", name.strip().lower())
    if base == "decimal":
        return name.upper()
    return TYPE_NAMES.get(base, name.upper())


def dialect(name: str) -> Dialect:
    """The dialect called ``name``; an unknown name is a clear error."""
    try:
        return DIALECTS[name]
    except KeyError:
        known = ", ".join(DIALECTS)
        raise SqlnbError(f"unknown dialect {name!r}: choose one of {known}") from None


def statements_for(tree: exp.Expr, d: Dialect) -> list[exp.Expr]:
    """A statement as the dialect runs it: one, or, where it lacks DELETE, three."""
    if isinstance(tree, exp.Delete) and not d.delete:
        target = tree.this
        keep = exp.select("*").from_(target.copy()).where(exp.not_(tree.args["where"].this))
        staging = exp.to_table(f"{target.name}__sqlnb_keep")
        return [
            exp.Drop(kind="TABLE", exists=True, tables=[staging.copy()]),
            exp.Create(this=staging.copy(), kind="TABLE", expression=keep),
            exp.Drop(kind="TABLE", exists=True, tables=[target.copy()]),
            exp.Alter(
                this=staging.copy(), kind="TABLE", actions=[exp.AlterRename(this=target.copy())]
            ),
        ]
    return [tree]


def to_sql(tree: exp.Expr, dialect_name: str, *, pretty: bool = False) -> str:
    """The tree as SQL text of a dialect; constructs the dialect cannot express raise."""
    try:
        return tree.sql(
            dialect=dialect_name, unsupported_level=sqlglot.ErrorLevel.RAISE, pretty=pretty
        )
    except sqlglot.errors.UnsupportedError as error:
        raise SqlnbError(f"cannot write this query for {dialect_name}: {error}") from None


def script(statements: Sequence[exp.Expr | str], dialect_name: str) -> str:
    """Statements as one script of a dialect, each ended by ``;``."""
    d = dialect(dialect_name)
    parts: list[str] = []
    for s in statements:
        if isinstance(s, str):
            parts.append(s)
        else:
            parts += [to_sql(t, d.sqlglot, pretty=True) for t in statements_for(s, d)]
    return "".join(f"{p};\n" for p in parts)


def one_line(error: BaseException) -> str:
    """An engine's error message reduced to its first line."""
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


# --- backends: how each engine runs text ---------------------------------------------------------


class Backend:
    """Runs SQL text on one kind of connection."""

    errors: tuple[type[BaseException], ...] = ()

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    def run(self, text: str, fetch: bool) -> list[Row]:
        cursor = self.connection.execute(text)
        return list(cursor.fetchall()) if fetch else []

    def describe(self, text: str) -> dict[str, str]:
        """The columns of a query (run with LIMIT 0) and their types, DuckDB spelling."""
        cursor = self.connection.execute(text)
        return {d[0]: "" for d in cursor.description}

    def close(self) -> None:
        self.connection.close()


class DuckDBBackend(Backend):
    errors = (duckdb.Error,)

    def __init__(self, connection: duckdb.DuckDBPyConnection) -> None:
        connection.execute("SET python_enable_replacements = false")
        connection.execute("SET enable_progress_bar = false")
        super().__init__(connection)

    def describe(self, text: str) -> dict[str, str]:
        relation = self.connection.sql(text)
        return {name: str(t) for name, t in zip(relation.columns, relation.types)}


class SQLiteBackend(Backend):
    errors = (sqlite3.Error,)

    def __init__(self, connection: sqlite3.Connection) -> None:
        try:
            connection.execute("SELECT ln(1), exp(0)")
        except sqlite3.OperationalError:  # built without math functions: supply the two used
            connection.create_function("ln", 1, _ln, deterministic=True)
            connection.create_function("exp", 1, _exp, deterministic=True)
        super().__init__(connection)


def _ln(x: float | None) -> float | None:
    if x is None or x < 0:
        return None
    return math.log(x) if x > 0 else float("-inf")


def _exp(x: float | None) -> float | None:
    return None if x is None else math.exp(x) if x < 709 else float("inf")


class PostgresBackend(Backend):
    def __init__(self, connection: Any) -> None:
        import psycopg

        self.errors = (psycopg.Error,)
        connection.autocommit = True  # transactions are explicit BEGIN / COMMIT
        super().__init__(connection)

    def run(self, text: str, fetch: bool) -> list[Row]:
        with self.connection.cursor() as cursor:
            cursor.execute(text.encode())
            return list(cursor.fetchall()) if fetch and cursor.description else []

    def describe(self, text: str) -> dict[str, str]:
        import psycopg

        with self.connection.cursor() as cursor:
            cursor.execute(text.encode())
            types = psycopg.postgres.types
            return {
                d.name: duckdb_type(getattr(types.get(d.type_code), "name", "text"))
                for d in cursor.description
            }


class SparkBackend(Backend):
    def __init__(self, session: Any) -> None:
        from pyspark.errors import PySparkException

        self.errors = (PySparkException,)
        super().__init__(session)

    def run(self, text: str, fetch: bool) -> list[Row]:
        frame = self.connection.sql(text)
        return [tuple(r) for r in frame.collect()] if fetch else []

    def describe(self, text: str) -> dict[str, str]:
        schema = self.connection.sql(text).schema
        return {f.name: duckdb_type(f.dataType.simpleString()) for f in schema.fields}

    def close(self) -> None:  # the session belongs to the caller, or lives for the process
        pass


# --- the database ----------------------------------------------------------------------------


class Database:
    """A connection to one database, with its dialect, a tracer and progress reporting."""

    def __init__(self, backend: Backend, dialect_name: str, *, path: str | None = None) -> None:
        self.backend = backend
        self.connection = backend.connection
        self.dialect = dialect(dialect_name)
        self.path = path
        self.tracer: Callable[[str], None] | None = None
        self.progress: Callable[[float], None] | None = None
        self._depth = 0

    @classmethod
    def connect(
        cls, target: Database | str | Path | Any, *, create: bool = False, read_only: bool = False
    ) -> Database:
        """Open a DuckDB file (the default), ``sqlite:///path.db`` or a ``.sqlite`` file,
        ``postgresql://...``, or ``spark://MASTER``; or wrap an open DuckDB, sqlite3 or psycopg
        connection or a SparkSession. Without ``create`` a missing file is an error."""
        if isinstance(target, Database):
            return target
        if isinstance(target, duckdb.DuckDBPyConnection):
            return cls(DuckDBBackend(target), "duckdb")
        if isinstance(target, sqlite3.Connection):
            return cls(SQLiteBackend(target), "sqlite")
        kind = type(target).__module__.split(".")[0]
        if kind == "psycopg":
            return cls(PostgresBackend(target), "postgres")
        if kind == "pyspark":
            return cls(SparkBackend(target), "spark")
        if not isinstance(target, (str, Path)):
            raise SqlnbError(f"not a database or connection: {type(target).__name__}")
        text = str(target)
        if text.startswith("sqlite://"):
            return cls._open_sqlite(text.removeprefix("sqlite://").removeprefix("/"), create)
        if text.endswith((".sqlite", ".sqlite3")):
            return cls._open_sqlite(text, create)
        if text.startswith(("postgresql://", "postgres://")):
            return cls._open_postgres(text)
        if text.startswith("spark://"):
            return cls._open_spark(text.removeprefix("spark://"))
        if "://" in text:
            raise SqlnbError(
                f"unsupported database URL {text!r}: use a DuckDB path, sqlite:///, "
                "postgresql:// or spark://"
            )
        if text != ":memory:" and not create and not Path(text).exists():
            raise SqlnbError(f"database file {text!r} does not exist")
        try:
            connection = duckdb.connect(text, read_only=read_only)
        except duckdb.Error as error:
            raise SqlnbError(f"cannot open {text!r}: {one_line(error)}") from None
        return cls(DuckDBBackend(connection), "duckdb", path=text)

    @classmethod
    def _open_sqlite(cls, path: str, create: bool) -> Database:
        if path != ":memory:" and not create and not Path(path).exists():
            raise SqlnbError(f"database file {path!r} does not exist")
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        return cls(SQLiteBackend(connection), "sqlite", path=path)

    @classmethod
    def _open_postgres(cls, url: str) -> Database:
        try:
            import psycopg
        except ImportError:
            raise SqlnbError("PostgreSQL needs psycopg: pip install 'sqlnb[postgres]'") from None
        try:
            connection = psycopg.connect(url, autocommit=True)
        except psycopg.Error as error:
            raise SqlnbError(f"cannot connect to {url!r}: {one_line(error)}") from None
        return cls(PostgresBackend(connection), "postgres", path=url)

    @classmethod
    def _open_spark(cls, master: str) -> Database:
        """A SparkSession on ``master``, configured as Spark's own configuration says
        (SPARK_CONF_DIR/spark-defaults.conf: catalog, metastore, warehouse)."""
        try:
            from pyspark.sql import SparkSession
        except ImportError:
            raise SqlnbError("Spark needs pyspark: pip install 'sqlnb[spark]'") from None
        builder = SparkSession.builder.master(master).appName("sqlnb")
        return cls(SparkBackend(builder.getOrCreate()), "spark", path=f"spark://{master}")

    def close(self) -> None:
        self.backend.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- running -------------------------------------------------------------------------

    def sql(self, tree: exp.Expr) -> str:
        return to_sql(tree, self.dialect.sqlglot)

    def execute(self, tree: exp.Expr | str) -> None:
        """Run one statement (a tree, or one of the dialect's own fixed statements)."""
        if isinstance(tree, str):
            self._run(tree, fetch=False)
            return
        for statement in statements_for(tree, self.dialect):
            self._run(self.sql(statement), fetch=False)

    def fetch(self, tree: exp.Expr) -> list[Row]:
        """Run a query and return its rows."""
        return self._run(self.sql(tree), fetch=True)

    def fetch_dicts(self, tree: exp.Expr) -> list[dict[str, Any]]:
        names = [s.alias_or_name for s in tree.selects] if isinstance(tree, exp.Query) else []
        return [dict(zip(names, row)) for row in self.fetch(tree)]

    def relation(self, tree: exp.Expr) -> Any:
        """A query's result, lazily where the engine can: a DuckDB relation (``.df()``,
        ``.pl()``, ``.arrow()``), a Spark DataFrame; on SQLite and PostgreSQL, its rows."""
        text = self.sql(tree)
        if self.tracer:
            self.tracer(text)
        if not isinstance(self.backend, (DuckDBBackend, SparkBackend)):
            return self._run(text, fetch=True)
        try:
            return self.connection.sql(text)
        except self.backend.errors as error:
            raise SqlnbError(one_line(error), sql=text) from None

    def _run(self, text: str, *, fetch: bool) -> list[Row]:
        if self.tracer:
            self.tracer(text)
        try:
            if self.progress is not None and isinstance(self.backend, DuckDBBackend):
                return self._run_with_progress(text, fetch=fetch)
            return self.backend.run(text, fetch)
        except self.backend.errors as error:
            raise SqlnbError(one_line(error), sql=text) from None

    def _run_with_progress(self, text: str, *, fetch: bool) -> list[Row]:
        """Run in a worker thread; report DuckDB's query progress; Ctrl-C interrupts the query."""
        result: dict[str, Any] = {}

        def work() -> None:
            try:
                result["rows"] = self.backend.run(text, fetch)
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
        """All statements inside commit together or not at all. Nested uses join the outer one.
        (Spark has no transactions: there the statements simply run in order.)"""
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
                self.backend.run(self.dialect.rollback or "ROLLBACK", False)
            raise
        self._depth -= 1
        self.execute(self.dialect.commit or "COMMIT")

    # --- looking at tables ---------------------------------------------------------------

    def columns(self, source: exp.Expr) -> dict[str, str]:
        """The columns of a table (node) or query and their SQL types in DuckDB's spelling
        (empty on SQLite, whose columns have no types); a missing table is a clear error."""
        query = source if isinstance(source, exp.Query) else exp.select("*").from_(source)
        probe = query.limit(0) if isinstance(query, exp.Select) else query
        text = self.sql(probe)
        try:
            return self.backend.describe(text)
        except self.backend.errors as error:
            raise SqlnbError(_missing(source, error), sql=text) from None

    def value_type(self, query: exp.Select, column_name: str) -> str:
        """The SQL type of a query's column; on SQLite, the storage class of its values."""
        types = self.columns(query)
        if self.dialect.name != "sqlite":
            return types[column_name]
        column = exp.column(column_name, quoted=True)
        probe = (
            exp.select(exp.func("typeof", column).as_("t"))
            .distinct()
            .from_(query.subquery("q"))
            .where(column.is_(exp.null()).not_())
        )
        kinds = {r[0] for r in self.fetch(probe)}
        if len(kinds) != 1:
            return "VARCHAR"
        return {"integer": "BIGINT", "real": "DOUBLE"}.get(kinds.pop(), "VARCHAR")

    def exists(self, table_node: exp.Table) -> bool:
        try:
            self.columns(table_node)
        except SqlnbError:
            return False
        return True


def _missing(source: exp.Expr, error: BaseException) -> str:
    message = one_line(error)
    if isinstance(source, exp.Table):
        name = ".".join(p.name for p in source.parts)
        lowered = message.lower()
        if any(
            w in lowered
            for w in ("does not exist", "no such table", "not found", "cannot be found")
        ):
            return f"table {name!r} does not exist"
        return f"cannot read table {name!r}: {message}"
    return message
