"""How each engine runs SQL text: a :class:`Backend` per kind of connection.

A backend knows its driver: how to run a statement and fetch rows, how to describe a query's
columns, how to interrupt a running statement and read its progress, and how to register a
Python function where the engine has no SQL for a step (SQLite's tokenizer).
"""

from __future__ import annotations

import contextlib
import math
import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
from sqlglot import exp

from sqlnb.engine import scratch

Row = tuple[Any, ...]


class Backend:
    """Runs SQL text on one kind of connection.

    An ``interruptible`` backend's statements run in a worker thread, so that Ctrl-C (which
    Python delivers to the main thread) can stop the statement with :meth:`interrupt`.
    """

    errors: tuple[type[BaseException], ...] = ()
    interruptible = False
    lazy = False  # whether :meth:`relation` returns a lazy result (DuckDB, Spark)
    typed_files = True  # whether :meth:`write_parquet` needs the columns' types (not Spark's)
    # whether an ORDER BY of a whole result is a range shuffle (Spark's: a sampling job and an
    # exchange): ordered rows are gathered in one partition and sorted there (bulk.in_order)
    sorts_one_partition = False
    # whether a prediction from a docs table reads it distributed by document first (Spark's
    # REPARTITION hint: its aggregations by document then share that exchange; sqlnb.pipeline)
    distributes_documents = False
    # whether one INSERT OVERWRITE can write a model's partition and keep the rows it replaces
    # under another key, reading them from the partition it overwrites (Spark's dynamic
    # partition overwrite: written aside, swapped after the job): a write keeps the version
    # it replaces without copying it first (sqlnb.versions.keeping)
    keeps_in_overwrite = False
    # whether a CREATE TABLE ... AS run as a query gives the rows it wrote, as one row with
    # one number (DuckDB's result, PostgreSQL's command tag): a written table is not counted
    counts_created = False
    # whether an INSERT ... RETURNING gives the rows it wrote: a write's catalog row comes
    # back from its INSERT instead of a read after it (sqlnb.catalog.execute)
    returns_rows = False
    schema: str | None = None  # where sqlnb's tables are, where the engine names it (PostgreSQL)

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Around a transaction sqlnb runs: session settings for its writes, then as before."""
        yield

    def check_writable(self) -> None:
        """Refuse, in one line (an SqlnbError), a database sqlnb must not write to although it
        can: asked before a write's first statement, and first by the commands that write after
        long work (training, predicting into a table)."""

    def opening(self, *, writing: bool = True) -> list[str]:
        """Statements run first in every transaction sqlnb runs (never printed in scripts);
        not ``writing``: in one that only reads."""
        return []

    def opened(self, fetch: Callable[[str], list[Row]], *, writing: bool) -> None:
        """Run after :meth:`opening`'s statements, ``fetch`` running a query: checks that
        the objects sqlnb is about to use are its own, and the lock of a writer (PostgreSQL:
        :mod:`sqlnb.engine.trust`). ``writing``: a transaction that writes models."""

    def trust(self, fetch: Callable[[str], list[Row]], *, writing: bool) -> None:
        """Refuse an object sqlnb would use that it may not trust (PostgreSQL's other roles)."""

    def prepare(self, tree: exp.Expr) -> exp.Expr:
        """A statement's tree as this engine must run it (PostgreSQL: tables qualified)."""
        return tree

    def interrupt(self) -> None:
        """Stop the statement running on the connection (called from another thread)."""

    def progress(self) -> float:
        """The running statement's progress in percent; negative when unknown."""
        return -1.0

    def run(self, text: str, fetch: bool) -> list[Row]:
        cursor = self.connection.execute(text)
        return list(cursor.fetchall()) if fetch else []

    def insert(self, text: str, rows: list[Row]) -> None:
        """Run an INSERT of placeholders once per row."""
        self.connection.executemany(text, rows)

    def relation(self, text: str) -> Any:
        """A query's result: lazy where the engine can (see :attr:`lazy`), else its rows."""
        return self.run(text, True)

    def describe(self, text: str) -> dict[str, str]:
        """The columns of a query (run with LIMIT 0) and their types, DuckDB spelling."""
        cursor = self.connection.execute(text)
        return {d[0]: "" for d in cursor.description}

    def register(self, name: str, function: Callable[..., Any], n_args: int) -> None:
        """Make a Python function callable from SQL on this connection."""
        raise NotImplementedError(f"{type(self).__name__} cannot register functions")

    # --- Parquet files in bulk (model files) ----------------------------------------------
    # The default: the driver streams the rows as CSV text (PostgreSQL's COPY; SQLite's rows
    # written out in batches), and an in-memory DuckDB converts between CSV and Parquet. Memory
    # stays bounded by the batches, and floats keep their exact values (both sides print the
    # shortest text that reads back to the same double).

    def write_parquet(self, text: str, path: Path, types: dict[str, str]) -> None:
        """Write the rows of a query (columns and DuckDB types ``types``) to a Parquet file."""
        with scratch.folder() as folder:
            rows = Path(folder) / "rows.csv"
            self.write_csv(text, rows)
            with duckdb.connect() as mem:
                # a DECIMAL of unknown precision is read as its exact text (DuckDB's own
                # DECIMAL would round it to three places)
                exact = {n: "VARCHAR" if t.upper() == "DECIMAL" else t for n, t in types.items()}
                columns = ", ".join(f"{literal(n)}: {literal(t)}" for n, t in exact.items())
                mem.execute(
                    f"COPY (SELECT * FROM read_csv({literal(str(rows))}, columns = {{{columns}}}, "
                    "header = false, auto_detect = false, allow_quoted_nulls = false)) "
                    f"TO {literal(str(path))} (FORMAT parquet)"
                )

    def write_csv(self, text: str, path: Path) -> None:
        """Write the rows of a query to a CSV file: NULL unquoted and empty, text quoted."""
        raise NotImplementedError(f"{type(self).__name__} cannot write CSV")

    def load_parquet(self, path: Path, name: str, create: str) -> None:
        """A temporary table ``name`` (created by ``create``) holding a Parquet file's rows."""
        self.run(create, False)
        with scratch.folder() as folder:
            rows = Path(folder) / "rows.csv"
            with duckdb.connect() as mem:
                mem.execute(
                    f"COPY (SELECT * FROM read_parquet({literal(str(path))})) "
                    f"TO {literal(str(rows))} (HEADER false)"
                )
            self.read_csv(rows, name)

    def read_csv(self, path: Path, name: str) -> None:
        """Insert the rows of a CSV file written by DuckDB into table ``name``."""
        raise NotImplementedError(f"{type(self).__name__} cannot read CSV")

    def unload(self, name: str) -> None:
        """Drop what :meth:`load_parquet` created."""
        self.run(f"DROP TABLE IF EXISTS {name}", False)

    def relation_type(self, name: str) -> str | None:
        """Whether ``name`` (in the current schema) is a "table" or a "view", or None."""
        found = self.run(
            "SELECT table_type FROM information_schema.tables "
            f"WHERE table_name = {literal(name)} AND table_schema = current_schema()",
            True,
        )
        if not found:
            return None
        return "view" if "VIEW" in str(found[0][0]).upper() else "table"

    def relations(self) -> dict[str, str] | None:
        """Every relation named sqlnb_* (in the current schema) and its :meth:`relation_type`,
        in one query (None: this engine asks by name)."""
        found = self.run(
            "SELECT table_name, table_type FROM information_schema.tables "
            "WHERE table_name LIKE 'sqlnb%' AND table_schema = current_schema()",
            True,
        )
        return {str(n): "view" if "VIEW" in str(t).upper() else "table" for n, t in found}

    def close(self) -> None:
        self.connection.close()


# DuckDB's optimizer that puts the side of a hash join it estimates smaller on the build side.
# Its estimate of a tokenized text (an UNNEST of each document's list of words) is a few rows
# whatever the documents, so a prediction from raw text built its hash table on the documents'
# tokens (2.2M at 10M token rows) and probed it with the model's scoring rows (600,000), 0.55
# CPU-s more than the other way round (docs/performance.md, "A prediction's join from raw
# text"). Off, the join order optimizer's sides stand (the model's table built); the other
# heavy statements (counting, deriving, predicting from a tokens table) were measured no slower.
# A lazy relation the Python API hands a caller runs under the caller's own settings.
_BUILD_SIDE = "build_side_probe_side"


def _disabling(name: str, disabled: str) -> str:
    """The SET that adds optimizer ``name`` to DuckDB's ``disabled`` ones (a list, "a,b")."""
    names = [n.strip() for n in disabled.split(",") if n.strip()]
    if name not in names:
        names.append(name)
    return f"SET disabled_optimizers = {literal(','.join(names))}"


class DuckDBBackend(Backend):
    errors = (duckdb.Error,)
    interruptible = True
    lazy = True
    counts_created = True
    returns_rows = True

    def __init__(self, connection: duckdb.DuckDBPyConnection, *, own: bool = False) -> None:
        self.own = own  # a file's connection sqlnb opened, and closes (not a caller's)
        self.wrote = self.removed = False  # whether a statement inserted; may have deleted
        self.vacuum: int | None = None  # DuckDB's max_vacuum_tasks, as a transaction found it
        connection.execute("SET python_enable_replacements = false")
        # Progress is tracked (query_progress() answers at once) but never printed by DuckDB.
        connection.execute("SET enable_progress_bar = true")
        connection.execute("SET enable_progress_bar_print = false")
        connection.execute("SET progress_bar_time = 0")
        super().__init__(connection)
        if own:  # a connection of sqlnb's own (DuckDB's defaults): every statement it runs
            connection.execute(_disabling(_BUILD_SIDE, ""))

    def interrupt(self) -> None:
        self.connection.interrupt()

    def run(self, text: str, fetch: bool) -> list[Row]:
        self.wrote = self.wrote or bool(_WRITES.match(text))
        self.removed = self.removed or bool(_REMOVES.search(text))
        return super().run(text, fetch)

    def close(self) -> None:
        """Close, DuckDB writing its checkpoint. Where this command wrote and deleted no row, the
        checkpoint skips DuckDB's vacuum: it could only merge the part-filled row groups of
        the command's own inserts, which rewrote a 10M-token model's scoring table at every
        training (0.15-0.2 s of CPU, and a file 40% larger, the old blocks left free).
        A deleting command's checkpoint compacts as DuckDB's does. The setting (global to the
        database: :meth:`writing` read it) is as it was again before the connection closes."""
        if self.own and self.wrote and not self.removed and self.vacuum is not None:
            with contextlib.suppress(duckdb.Error):  # (a read-only file: nothing to write)
                self.connection.execute("SET max_vacuum_tasks = 0")
                try:
                    self.connection.execute("CHECKPOINT")
                finally:
                    self.connection.execute(f"SET max_vacuum_tasks = {self.vacuum}")
        super().close()

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """No table sqlnb writes has a row order, so DuckDB need not keep the order of the rows
        it inserts (its default; keeping it costs, e.g., 0.1 s of a 0.3 s insert of a model's
        wide rows). The connection's own setting is restored afterwards. (The same query
        reads the vacuum's setting for :meth:`close`.) DuckDB's choice of a join's build side
        by estimates is off while they run too (:data:`_BUILD_SIDE`), and as it was afterwards."""
        setting = "preserve_insertion_order"
        before, vacuum, disabled = self.connection.execute(
            f"SELECT current_setting('{setting}'), current_setting('max_vacuum_tasks'), "
            "current_setting('disabled_optimizers')"
        ).fetchone()
        self.vacuum = int(vacuum)
        self.connection.execute(f"SET {setting} = false")
        self.connection.execute(_disabling(_BUILD_SIDE, disabled))
        try:
            yield
        finally:
            self.connection.execute(f"SET {setting} = {'true' if before else 'false'}")
            self.connection.execute(f"SET disabled_optimizers = {literal(disabled)}")

    def progress(self) -> float:
        return float(self.connection.query_progress())

    def relation(self, text: str) -> Any:
        return self.connection.sql(text)

    def describe(self, text: str) -> dict[str, str]:
        relation = self.connection.sql(text)
        return {name: str(t) for name, t in zip(relation.columns, relation.types)}

    def write_parquet(self, text: str, path: Path, types: dict[str, str]) -> None:
        self.run(f"COPY ({text}) TO {literal(str(path))} (FORMAT parquet)", False)

    def load_parquet(self, path: Path, name: str, create: str) -> None:
        self.run(
            f"CREATE OR REPLACE TEMPORARY VIEW {name} AS "
            f"SELECT * FROM read_parquet({literal(str(path))})",
            False,
        )

    def unload(self, name: str) -> None:
        self.run(f"DROP VIEW IF EXISTS {name}", False)


class SQLiteBackend(Backend):
    errors = (sqlite3.Error,)
    returns_rows = sqlite3.sqlite_version_info >= (3, 35)  # (RETURNING came in 3.35)

    def __init__(self, connection: sqlite3.Connection, *, threaded: bool = False) -> None:
        try:
            connection.execute("SELECT ln(1), exp(0)")
        except sqlite3.OperationalError:  # built without math functions: supply the two used
            connection.create_function("ln", 1, _ln, deterministic=True)
            connection.create_function("exp", 1, _exp, deterministic=True)
        super().__init__(connection)
        # Only a connection sqlnb opened (check_same_thread=False) may run in a worker thread.
        self.interruptible = threaded
        self.registered: set[str] = set()

    def interrupt(self) -> None:
        self.connection.interrupt()

    def register(self, name: str, function: Callable[..., Any], n_args: int) -> None:
        """Once per name on this connection: SQLite refuses to create a function while a
        statement runs (building a SQL function's query inside it registers the tokenizer)."""
        if name in self.registered:
            return
        self.connection.create_function(name, n_args, function, deterministic=True)
        self.registered.add(name)

    def relation_type(self, name: str) -> str | None:
        found = self.run(f"SELECT type FROM sqlite_master WHERE name = {literal(name)}", True)
        return str(found[0][0]) if found else None

    def relations(self) -> dict[str, str] | None:
        found = self.run("SELECT name, type FROM sqlite_master WHERE name LIKE 'sqlnb%'", True)
        return {str(n): str(t) for n, t in found}

    def write_csv(self, text: str, path: Path) -> None:
        cursor = self.connection.execute(text)
        with path.open("w", encoding="utf-8", newline="") as out:
            while rows := cursor.fetchmany(BATCH):
                out.writelines(",".join(map(_csv_field, row)) + "\n" for row in rows)

    def load_parquet(self, path: Path, name: str, create: str) -> None:
        """SQLite has no bulk path: the rows go in batches of inserts, read by DuckDB."""
        self.run(create, False)
        with duckdb.connect() as mem:
            cursor = mem.execute(f"SELECT * FROM read_parquet({literal(str(path))})")
            marks = ", ".join("?" for _ in cursor.description or ())
            insert = f"INSERT INTO {name} VALUES ({marks})"
            while rows := cursor.fetchmany(BATCH):
                self.connection.executemany(insert, rows)


BATCH = 10_000  # rows per batch where rows pass through Python (SQLite)
_WRITES = re.compile(r"\s*(INSERT|CREATE)\b", re.IGNORECASE)
# A statement that may delete or replace rows (leaving row groups DuckDB's vacuum compacts).
_REMOVES = re.compile(r"\b(DELETE|UPDATE|TRUNCATE|MERGE|REPLACE\s+INTO)\b", re.IGNORECASE)


def _csv_field(value: Any) -> str:
    """A value as a CSV field that DuckDB reads back the same: floats by their shortest exact
    text (``repr``), text always quoted (so that an empty string is not a NULL)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return '"' + value.replace('"', '""') + '"'
    return repr(value) if isinstance(value, float) else str(value)


def literal(text: str) -> str:
    """A string as an SQL literal."""
    return "'" + text.replace("'", "''") + "'"


def quoted(text: str) -> str:
    """A name as a quoted identifier (DuckDB)."""
    return '"' + text.replace('"', '""') + '"'


def _ln(x: float | None) -> float | None:
    if x is None or x < 0:
        return None
    return math.log(x) if x > 0 else float("-inf")


def _exp(x: float | None) -> float | None:
    return None if x is None else math.exp(x) if x < 709 else float("inf")
