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
from typing import Any, TypeVar

import duckdb
import sqlglot
from sqlglot import exp

from sqlnb import templates
from sqlnb.errors import SqlnbError

Row = tuple[Any, ...]
T = TypeVar("T")


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
    # Run first in every transaction sqlnb runs (not printed in scripts): where concurrent
    # transactions would otherwise interleave, one at a time per namespace.
    lock: str | None = None
    # A function that fails the running query with a message, where the engine has one.
    fail: str | None = None


DIALECTS: dict[str, Dialect] = {
    d.name: d
    for d in (
        Dialect("duckdb", "duckdb", fail="error"),
        Dialect("sqlite", "sqlite", begin="BEGIN"),
        # READ COMMITTED lets two trainings of one model both delete the old rows and both
        # insert theirs: a transaction-scoped advisory lock per schema makes the second wait
        # for the first, then replace its model whole.
        Dialect(
            "postgres",
            "postgres",
            begin="BEGIN",
            lock="SELECT pg_advisory_xact_lock(hashtext('sqlnb.' || current_schema()))",
        ),
        Dialect(
            "spark",
            "spark",
            begin=None,
            commit=None,
            rollback=None,
            delete=False,
            fail="raise_error",
        ),
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
    """Runs SQL text on one kind of connection.

    An ``interruptible`` backend's statements run in a worker thread, so that Ctrl-C (which
    Python delivers to the main thread) can stop the statement with :meth:`interrupt`.
    """

    errors: tuple[type[BaseException], ...] = ()
    interruptible = False

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Around a transaction sqlnb runs: session settings for its writes, then as before."""
        yield

    def interrupt(self) -> None:
        """Stop the statement running on the connection (called from another thread)."""

    def progress(self) -> float:
        """The running statement's progress in percent; negative when unknown."""
        return -1.0

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
    interruptible = True

    def __init__(self, connection: duckdb.DuckDBPyConnection) -> None:
        connection.execute("SET python_enable_replacements = false")
        connection.execute("SET enable_progress_bar = false")
        super().__init__(connection)

    def interrupt(self) -> None:
        self.connection.interrupt()

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """No table sqlnb writes has a row order, so DuckDB need not keep the order of the rows
        it inserts (its default; keeping it costs, e.g., 0.1 s of a 0.3 s insert of a model's
        wide rows). The connection's own setting is restored afterwards."""
        setting = "preserve_insertion_order"
        (before,) = self.connection.execute(f"SELECT current_setting('{setting}')").fetchone()
        self.connection.execute(f"SET {setting} = false")
        try:
            yield
        finally:
            self.connection.execute(f"SET {setting} = {'true' if before else 'false'}")

    def progress(self) -> float:
        return float(self.connection.query_progress())

    def describe(self, text: str) -> dict[str, str]:
        relation = self.connection.sql(text)
        return {name: str(t) for name, t in zip(relation.columns, relation.types)}


class SQLiteBackend(Backend):
    errors = (sqlite3.Error,)

    def __init__(self, connection: sqlite3.Connection, *, threaded: bool = False) -> None:
        try:
            connection.execute("SELECT ln(1), exp(0)")
        except sqlite3.OperationalError:  # built without math functions: supply the two used
            connection.create_function("ln", 1, _ln, deterministic=True)
            connection.create_function("exp", 1, _exp, deterministic=True)
        super().__init__(connection)
        # Only a connection sqlnb opened (check_same_thread=False) may run in a worker thread.
        self.interruptible = threaded

    def interrupt(self) -> None:
        self.connection.interrupt()


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
        # Why the database cannot be written to, when sqlnb opened it read-only.
        self.read_only: str | None = None
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
        return cls._open_duckdb(text, read_only)

    @classmethod
    def _open_duckdb(cls, path: str, read_only: bool) -> Database:
        """A DuckDB file. One another process holds is a clear 'locked' error (DuckDB lets one
        process write a file, or several read it); a file this process may not write is opened
        read-only, so that reading works and writing is a clear error."""
        reason = "it was opened read-only" if read_only else None
        try:
            connection = duckdb.connect(path, read_only=read_only)
        except duckdb.Error as error:
            message = one_line(error)
            if _is_lock_error(message):
                raise SqlnbError(_locked(path, message)) from None
            if read_only or not _is_permission_error(message) or not Path(path).is_file():
                raise SqlnbError(f"cannot open {path!r}: {message}") from None
            try:
                connection = duckdb.connect(path, read_only=True)
            except duckdb.Error as again:
                raise SqlnbError(f"cannot open {path!r}: {one_line(again)}") from None
            reason = "its file is not writable"
        database = cls(DuckDBBackend(connection), "duckdb", path=path)
        database.read_only = reason
        return database

    @classmethod
    def _open_sqlite(cls, path: str, create: bool) -> Database:
        if path != ":memory:" and not create and not Path(path).exists():
            raise SqlnbError(f"database file {path!r} does not exist")
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        return cls(SQLiteBackend(connection, threaded=True), "sqlite", path=path)

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
            return self._interruptibly(lambda: self.backend.run(text, fetch), text)
        except self.backend.errors as error:
            raise SqlnbError(self._explain(error), sql=text) from None

    def _interruptibly(self, call: Callable[[], T], text: str) -> T:
        """Run in a worker thread, so that Ctrl-C stops the statement: the main thread waits,
        gets the KeyboardInterrupt, interrupts the connection and re-raises it (the enclosing
        transaction then rolls back). Reports progress when ``self.progress`` is set.

        A Ctrl-C that arrives while the COMMIT runs cannot stop it: the commit completes and
        the call returns normally, so a KeyboardInterrupt from here always means that nothing
        was committed."""
        if not self.backend.interruptible:
            return call()
        result: dict[str, Any] = {}
        # An Event, not Thread.join: a join that Ctrl-C interrupts can mark a running thread
        # as stopped (Python < 3.13), and the connection would then be used while busy.
        done = threading.Event()

        def work() -> None:
            try:
                result["value"] = call()
            except BaseException as error:  # handed back to the calling thread
                result["error"] = error
            finally:
                done.set()

        worker = threading.Thread(target=work, name="sqlnb-statement", daemon=True)
        try:
            worker.start()  # a Ctrl-C can arrive while it waits for the thread to start
            while not done.wait(0.1):
                if self.progress is not None:
                    self.progress(self.backend.progress())
        except KeyboardInterrupt:
            while not done.wait(0.05):  # again until it stops: it may not have started yet
                self.backend.interrupt()
            if text == self.dialect.commit and "value" in result:
                return result["value"]  # type: ignore[no-any-return]
            raise
        if "error" in result:
            raise result["error"]
        return result["value"]  # type: ignore[no-any-return]

    def _explain(self, error: BaseException) -> str:
        """An engine's error as one line that says what happened."""
        message = one_line(error)
        lowered = message.lower()
        if "read-only mode" in lowered or "readonly database" in lowered:
            why = self.read_only or "it was opened read-only"
            name = f"database {self.path!r}" if self.path else "the database"
            return f"{name} is read-only ({why}): cannot write to it"
        if _is_lock_error(message) or "database is locked" in lowered:
            return _locked(self.path, message)
        missing = _missing_name(message)
        if missing is not None:
            return f"table {missing!r} does not exist"
        if "conflict" in lowered and "transaction" in lowered:
            return (
                f"another connection changed the same tables at the same time ({message}): "
                "nothing was written; try again"
            )
        return message

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
        with self.backend.writing():
            self.execute(self.dialect.begin)
            self._depth += 1
            try:
                if self.dialect.lock is not None:
                    self.execute(self.dialect.lock)
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
            return self._interruptibly(lambda: self.backend.describe(text), text)
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

    def output_statements(
        self, output: str, query: exp.Query, *, replace: bool = False
    ) -> list[exp.Expr]:
        """The statements that create table ``output`` from a query; an existing table is an
        error unless ``replace``."""
        target = templates.table(output)
        if not replace and self.exists(target):
            raise SqlnbError(f"output table {output!r} already exists (use --replace)")
        create = exp.Create(this=target, kind="TABLE", expression=query)
        if not replace:
            return [create]
        return [templates.render("catalog/drop_table.sql", table=target.copy()), create]

    def write_table(
        self,
        output: str,
        query: exp.Query,
        *,
        replace: bool = False,
        verify: Callable[[], None] | None = None,
    ) -> int:
        """Create table ``output`` from a query, in one transaction; returns its rows.
        ``verify``, if given, runs in the transaction after the write: raising, it undoes it."""
        statements = self.output_statements(output, query, replace=replace)
        with self.transaction():
            for statement in statements:
                self.execute(statement)
            if verify is not None:
                verify()
        count = exp.select(exp.func("COUNT", exp.Star())).from_(templates.table(output))
        return int(self.fetch(count)[0][0])

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
            # A view whose own tables are gone is not a missing table: name what is missing.
            missing = _missing_name(message)
            if missing is not None and missing.lower() != source.name.lower():
                return f"cannot read {name!r}: the table {missing!r} it reads does not exist"
            return f"table {name!r} does not exist"
        return f"cannot read table {name!r}: {message}"
    return message


MISSING_NAME = (
    r"Table with name (.+?) does not exist",  # DuckDB
    r"no such table: (\S+)",  # SQLite
    r'relation "(.+?)" does not exist',  # PostgreSQL
    r"table or view (\S+) cannot be found",  # Spark
)


def _missing_name(message: str) -> str | None:
    """The (last part of the) name of the table an engine reports missing, if it says."""
    for pattern in MISSING_NAME:
        found = re.search(pattern, message, flags=re.IGNORECASE)
        if found:
            return found.group(1).strip("`\"'").split(".")[-1].strip("`\"'")
    return None


def _is_lock_error(message: str) -> bool:
    return "could not set lock" in message.lower() or "conflicting lock" in message.lower()


def _is_permission_error(message: str) -> bool:
    lowered = message.lower()
    return "permission denied" in lowered or "read-only file system" in lowered


def _locked(path: str | None, message: str) -> str:
    """A database another process is using, as one line (with its process id if known)."""
    pid = re.search(r"PID (\d+)", message)
    who = f"another process (PID {pid.group(1)})" if pid else "another process"
    name = f"database {path!r}" if path else "the database"
    return f"{name} is locked: {who} is using it; try again when it has finished"
