"""The one gateway to databases.

A :class:`Database` holds a connection, a :class:`~sqlnb.engine.backends.Backend` that runs text
on it, and its :class:`~sqlnb.engine.dialects.Dialect`: what differs between engines is declared
there as data, never as forked copies of queries. Every statement goes through
:meth:`Database.execute` or :meth:`Database.fetch`, which transpile the tree, pass it to the
tracer, run it, and turn the engine's errors into :class:`~sqlnb.errors.SqlnbError`.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import duckdb
from sqlglot import exp

from sqlnb import templates
from sqlnb.engine import bulk, messages, scratch
from sqlnb.engine.backends import Backend, Row
from sqlnb.engine.connections import backend_for, open_target
from sqlnb.engine.dialects import (
    DIALECTS,
    Dialect,
    dialect,
    replace_table,
    script,
    statements_for,
    to_sql,
)
from sqlnb.engine.interrupt import interruptibly
from sqlnb.errors import MissingTable, SqlnbError

T = TypeVar("T")
_DDL = re.compile(r"\s*(CREATE|DROP|ALTER)\b", re.IGNORECASE)  # what changes the schema

__all__ = ["DIALECTS", "Database", "Dialect", "Row", "dialect", "script", "to_sql"]


class Database:
    """A connection to one database, with its dialect, a tracer and progress reporting."""

    def __init__(self, backend: Backend, dialect_name: str, *, path: str | None = None) -> None:
        self.backend = backend
        self.connection = backend.connection
        self.dialect = dialect(dialect_name)
        self.path = path
        self.created = False  # whether opening it created its file (see cli.console.opened)
        # Why the database cannot be written to, when sqlnb opened it read-only.
        self.read_only: str | None = None
        self.tracer: Callable[[str], None] | None = None
        # Called after each statement with its text and its seconds (profiling).
        self.timer: Callable[[str, float], None] | None = None
        # Told what a long command is doing and how far it is (see :meth:`stage`).
        self.on_stage: Callable[[str, float | None], None] | None = None
        self.progress: Callable[[float], None] | None = None
        # Called just before changes are committed (a transaction's COMMIT, a file published):
        # the command line stops taking Ctrl-C for an interruption from then on.
        self.on_commit: Callable[[], None] | None = None
        self._depth = 0
        self._probed: dict[str, str | None] | None = None  # one command's probes (probing())
        self._threads: int | None = None
        self._temporary: set[str] = set()  # the temporary tables this object made (by name)

    @classmethod
    def connect(
        cls,
        target: Database | str | Path | Any,
        *,
        create: bool = False,
        read_only: bool = False,
        wait: float | None = None,
    ) -> Database:
        """Open a DuckDB file (the default), ``sqlite:///path.db`` or a ``.sqlite`` file,
        ``postgresql://...``, ``spark://MASTER``, ``chdb:///folder`` or ``clickhouse://...``; or
        wrap an open DuckDB, sqlite3 or psycopg connection, a SparkSession or a
        clickhouse-connect client. Without ``create`` a missing file is an error. A DuckDB file
        another process holds is waited for up to ``wait`` seconds (default 0); on
        PostgreSQL, a lock of the models another session holds (default 30)."""
        if isinstance(target, Database):
            return target
        wrapped = backend_for(target)
        if wrapped is not None:
            return cls(*wrapped)
        if not isinstance(target, (str, Path)):
            raise SqlnbError(f"not a database or connection: {type(target).__name__}")
        opened = open_target(str(target), create=create, read_only=read_only, wait=wait)
        database = cls(opened.backend, opened.dialect, path=opened.path)
        database.created, database.read_only = opened.created, opened.read_only
        return database

    def close(self) -> None:
        start = time.perf_counter()
        self.backend.close()  # DuckDB writes its checkpoint here
        if self.timer:
            self.timer("(close)", time.perf_counter() - start)

    def partitions(self, source: exp.Expr, key: exp.Expr) -> list[exp.Expr]:
        """``source`` as the parts to read side by side for a costly step, split by a hash of
        ``key``: one per thread where the engine gives a scan one thread per block of rows
        (DuckDB), else the source whole. (Tokenizing a table of 100,000 documents, one row
        group, goes twice as fast on 2 cores.)"""
        split = self.dialect.split_hash
        if split is None:
            return [source]
        if self._threads is None:
            threads = exp.select(exp.func("current_setting", exp.convert("threads")))
            self._threads = int(self.fetch(threads)[0][0])
        n = max(1, self._threads)
        if n == 1:
            return [source]
        bucket = exp.Mod(
            this=exp.Anonymous(this=split, expressions=[key]), expression=exp.convert(n)
        )
        where = [bucket.copy().eq(exp.convert(i)) for i in range(n)]
        return [exp.select("*").from_(source.copy()).where(w).subquery("s") for w in where]

    def stage(self, what: str, done: float | None = None) -> None:
        """Say what the work is doing now (``counting``, ``fold 2/5, alpha 0.1``) and, where
        it has several steps, the share of them already done (0 to 1): for progress displays."""
        if self.on_stage is not None:
            self.on_stage(what, done)

    def register_function(self, name: str, function: Callable[..., Any], n_args: int) -> None:
        """Make a Python function callable from SQL on this connection (where the engine has no
        SQL for a step: SQLite's tokenizer)."""
        self.backend.register(name, function, n_args)

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- running -------------------------------------------------------------------------

    def sql(self, tree: exp.Expr) -> str:
        """A statement as the engine's SQL text. Statements are run as they are built, once:
        the tree is not copied first (copies are most of the cost of writing SQL)."""
        return to_sql(self.backend.prepare(tree), self.dialect.sqlglot, copy=False)

    def texts(self, tree: exp.Expr) -> list[str]:
        """A statement as the engine runs it: its SQL texts (see :func:`statements_for`)."""
        return [self.sql(s) for s in statements_for(tree, self.dialect)]

    def execute(self, tree: exp.Expr | str) -> None:
        """Run one statement (a tree, or one of the engine's SQL texts built earlier). Each of
        the engine's statements is written just before it runs (it may name the last one's)."""
        if isinstance(tree, str):
            self._run(tree, fetch=False)
            return
        for statement in statements_for(tree, self.dialect):
            self._run(self.sql(statement), fetch=False)

    def fetch(self, tree: exp.Expr) -> list[Row]:
        """Run a query and return its rows."""
        return self._run(self.sql(tree), fetch=True)

    def fetch_text(self, text: str) -> list[Row]:
        """Run a query given as the engine's own SQL text (built earlier) and return its rows."""
        return self._run(text, fetch=True)

    def fetch_dicts(self, tree: exp.Expr) -> list[dict[str, Any]]:
        names = [s.alias_or_name for s in tree.selects] if isinstance(tree, exp.Query) else []
        return [dict(zip(names, row)) for row in self.fetch(tree)]

    def relation(self, tree: exp.Expr) -> Any:
        """A query's result, lazily where the engine can: a DuckDB relation (``.df()``,
        ``.pl()``, ``.arrow()``), a Spark DataFrame; on SQLite and PostgreSQL, its rows."""
        text = self.sql(tree)
        if self.tracer:
            self.tracer(text)
        if not self.backend.lazy:
            return self._run(text, fetch=True)
        try:
            return self.backend.relation(text)
        except self.backend.errors as error:
            raise SqlnbError(messages.one_line(error), sql=text) from None

    def _run(self, text: str, *, fetch: bool) -> list[Row]:
        if self.tracer:
            self.tracer(text)
        if self._probed and not fetch and _DDL.match(text):  # the names it changes: probe again
            self._probed = {k: v for k, v in self._probed.items() if k not in text}
        start = time.perf_counter()
        try:
            return self._interruptibly(lambda: self.backend.run(text, fetch), text)
        except self.backend.errors as error:
            raise SqlnbError(messages.explain(error, self.path, self.read_only), sql=text) from None
        finally:
            if self.timer:
                self.timer(text, time.perf_counter() - start)

    def _interruptibly(self, call: Callable[[], T], text: str) -> T:
        """``call`` so that Ctrl-C stops it (:func:`~sqlnb.engine.interrupt.interruptibly`),
        reporting progress when ``self.progress`` is set."""
        if not self.backend.interruptible:
            return call()
        shown = self.progress
        progress = None if shown is None else (lambda: shown(self.backend.progress()))
        commit = text == self.dialect.commit
        return interruptibly(call, self.backend.interrupt, progress, commit=commit)

    @contextlib.contextmanager
    def transaction(self, *, models: bool = True) -> Iterator[None]:
        """All statements inside commit together or not at all. Nested uses join the outer one.
        (Spark has no transactions: there the statements simply run in order.) Not
        ``models``: one that writes only a table of the user's (predictions), reading models."""
        if not self._depth:  # a database sqlnb must not write to is refused before it starts
            self.backend.check_writable()
        if self._depth or self.dialect.begin is None:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        with self.backend.writing(), self.probing():
            self.execute(self.dialect.begin)
            self._depth += 1
            try:
                for text in self.backend.opening(writing=models):
                    self.execute(text)
                self.backend.opened(self.fetch_text, writing=models)
                yield
            except BaseException:
                self._depth -= 1
                self._probed = None if self._probed is None else {}  # what it made is gone
                with contextlib.suppress(Exception):
                    self.backend.run(self.dialect.rollback or "ROLLBACK", False)
                raise
            self._depth -= 1
            self.committing()
            self.execute(self.dialect.commit or "COMMIT")

    def trusted(self, *, writing: bool = False) -> None:
        """Refuse, in one line, an object of sqlnb's names that the models' readers (or,
        ``writing``, their writers) may not trust (:mod:`sqlnb.engine.trust`), once a scope."""
        probed = {} if self._probed is None else self._probed  # (what it makes is the user's)
        if f"\0{writing}" not in probed:
            self.backend.trust(self.fetch_text, writing=writing)
        probed[f"\0{writing}"] = None

    def committing(self) -> None:
        """Say that changes are about to be committed (see :attr:`on_commit`)."""
        if self.on_commit is not None:
            self.on_commit()

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads that all see one committed state of the database: a read-only transaction
        where the engine has one (PostgreSQL: REPEATABLE READ); else reads as they come."""
        if self._depth or self.dialect.snapshot is None:
            yield
            return
        self.execute(self.dialect.snapshot)
        self._depth += 1
        try:
            for text in self.backend.opening(writing=False):
                self.execute(text)
            self.backend.opened(self.fetch_text, writing=False)
            yield
        finally:
            self._depth -= 1
            with contextlib.suppress(Exception):
                self.backend.run(self.dialect.rollback or "ROLLBACK", False)

    # --- looking at tables ---------------------------------------------------------------

    def columns(self, source: exp.Expr) -> dict[str, str]:
        """The columns of a table (node) or query and their SQL types in DuckDB's spelling
        (empty on SQLite, whose columns have no types); a missing table is a clear error."""
        query = source if isinstance(source, exp.Query) else exp.select(exp.Star()).from_(source)
        parquet = source.find(exp.ReadParquet)
        if parquet is not None and not self.dialect.reads_parquet:
            path = parquet.expressions[0].name if parquet.expressions else ""
            raise SqlnbError(
                f"{self.dialect.name} cannot read the Parquet file {path!r}: load it into a "
                "table first (sqlnb reads Parquet files by path on DuckDB and Spark)"
            )
        probe = query.limit(exp.Literal.number(0)) if isinstance(query, exp.Select) else query
        text = self.sql(probe)
        try:
            return self._interruptibly(lambda: self.backend.describe(text), text)
        except self.backend.errors as error:
            message, missing = messages.missing_table(source, error)
            raise (MissingTable if missing else SqlnbError)(message, sql=text) from None

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

    def update_statements(
        self,
        target: exp.Table,
        key: str,
        query: exp.Query,
        columns: dict[str, tuple[str, exp.DataType]],
    ) -> list[exp.Expr]:
        """The statements that set ``columns`` of table ``target`` (name -> (column of
        ``query``, type); added where missing) to the values of ``query``'s row whose doc_id
        equals the row's ``key``; every other column and row stays as it was. Where the engine
        has no UPDATE (Spark's file tables), the table is rewritten with the new columns."""
        existing = self.columns(target)
        key_of = exp.column(key, table="t", quoted=True)
        if not self.dialect.update:
            select = [
                exp.cast(exp.column(columns[c][0], table="p"), columns[c][1]).as_(c, quoted=True)
                if c in columns
                else exp.column(c, table="t", quoted=True)
                for c in existing
            ]
            select += [
                exp.cast(exp.column(value, table="p"), kind).as_(name, quoted=True)
                for name, (value, kind) in columns.items()
                if name not in existing
            ]
            rewritten = (
                exp.select(*select)
                .from_(target.copy().as_("t"))
                .join(
                    query.subquery("p"),
                    join_type="LEFT",
                    on=key_of.eq(exp.column("doc_id", table="p")),
                )
            )
            staging = exp.to_table(scratch.fresh("sqlnb_classify_staging"))
            return replace_table(target, rewritten, staging)
        statements: list[exp.Expr] = [
            exp.Alter(
                this=target.copy(),
                kind="TABLE",
                actions=[exp.ColumnDef(this=exp.to_identifier(name, quoted=True), kind=kind)],
            )
            for name, (_, kind) in columns.items()
            if name not in existing
        ]
        statements.append(
            exp.Update(
                this=target.copy().as_("sqlnb_target"),
                expressions=[
                    exp.column(name, quoted=True).eq(exp.column(value, table="p"))
                    for name, (value, _) in columns.items()
                ],
                from_=exp.From(this=query.subquery("p")),
                where=exp.Where(
                    this=exp.column(key, table="sqlnb_target", quoted=True).eq(
                        exp.column("doc_id", table="p")
                    )
                ),
            )
        )
        return statements

    def output_statements(
        self, output: str, query: exp.Query, *, replace: bool = False
    ) -> list[exp.Expr]:
        """The statements that create table ``output`` from a query (the CREATE last); an
        existing table is an error unless ``replace``."""
        target = templates.table(output)
        if not replace and self.exists(target):
            raise SqlnbError(f"output table {output!r} already exists (use --replace)")
        create = exp.Create(this=target, kind="TABLE", expression=query)
        if not replace:
            return [create]
        return [templates.render("catalog/drop_table.sql", table=target.copy()), create]

    def temporary(self, name: str, query: exp.Query) -> exp.Table:
        """A temporary table ``name`` (a scratch name, :func:`scratch.name`) of ``query``'s
        rows, replacing one that this object made; nothing else is dropped (a user's table of
        that name stays as it is: a temporary table is found before it)."""
        table = exp.to_table(name)
        self.drop_temporary(table)
        temporary = exp.Properties(expressions=[exp.TemporaryProperty()])
        self.execute(
            exp.Create(this=table.copy(), kind="TABLE", expression=query, properties=temporary)
        )
        self._temporary.add(name)
        return table

    def drop_temporary(self, table: exp.Table) -> None:
        """Drop a temporary table :meth:`temporary` made, if it did (else nothing)."""
        if table.name in self._temporary:
            self.execute(templates.render("catalog/drop_table.sql", table=table.copy()))
            self._temporary.discard(table.name)

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
        *before, create = self.output_statements(output, query, replace=replace)
        counted = self.backend.counts_created  # the CREATE's own count of its rows, or none
        with self.transaction(models=False):
            for statement in before if counted else [*before, create]:
                self.execute(statement)
            written = self.fetch(create) if counted else []
            if verify is not None:
                verify()
        count = exp.select(exp.func("COUNT", exp.Star())).from_(templates.table(output))
        return int((written or self.fetch(count))[0][0])

    # --- model files ---------------------------------------------------------------------

    def write_parquet(self, query: exp.Query, path: Path, types: dict[str, str]) -> None:
        """Write the rows of ``query`` (columns and DuckDB types: ``types``) to a Parquet file
        by the engine's bulk path: DuckDB's or PostgreSQL's ``COPY``, Spark's writer, SQLite
        in batches. Never the whole result in Python; floats exactly."""
        text = self.sql(query)
        self._bulk(lambda: self.backend.write_parquet(text, path, types), text)

    def write_file(self, query: exp.Select, path: Path) -> int:
        """The rows of ``query`` into a Parquet, CSV or JSON file (:func:`bulk.write_file`)."""
        return bulk.write_file(self, query, path)

    @contextlib.contextmanager
    def parquet(self, path: Path, name: str) -> Iterator[tuple[exp.Table, dict[str, str]]]:
        """A temporary relation ``name`` of a Parquet file's rows by the engine's bulk path
        (a view, or a table filled by ``COPY`` or batched inserts), with its columns' types."""
        types, table = bulk.parquet_types(path), exp.to_table(name)
        create = self.sql(bulk.temporary_table(table, types))
        self._bulk(lambda: self.backend.load_parquet(path, name, create), f"read {path}")
        try:
            yield table, types
        except BaseException:  # an aborted transaction's rollback drops it: keep the error
            with contextlib.suppress(SqlnbError):
                self._bulk(lambda: self.backend.unload(name), f"drop {name}")
            raise
        self._bulk(lambda: self.backend.unload(name), f"drop {name}")

    def _bulk(self, call: Callable[[], None], text: str) -> None:
        if self.tracer:
            self.tracer(text)
        if self._probed:
            self._probed.clear()
        started = time.perf_counter()
        try:
            self._interruptibly(call, text)
        except self.backend.errors as error:
            raise SqlnbError(messages.one_line(error), sql=text) from None
        except (duckdb.Error, OSError) as error:  # the in-memory DuckDB, or the files
            raise SqlnbError(messages.one_line(error), sql=text) from None
        if self.timer:
            self.timer(text, time.perf_counter() - started)

    def relation_type(self, table_node: exp.Table) -> str | None:
        """Whether sqlnb's table ``table_node`` is a "table" or a "view", or None (probing())."""
        name, probed = table_node.name, self._probed
        text = f"relation type of {name}"
        try:
            if probed is not None and "" not in probed and name.startswith("sqlnb_"):
                listed = self._interruptibly(self.backend.relations, text)
                if listed is not None:  # "": the listing is whole (a CREATE or DROP drops it)
                    probed.update({n: listed.get(n) for n in (*listed, name, "")})
            if probed is not None and (name in probed or ("" in probed and name[:6] == "sqlnb_")):
                return probed.get(name)
            found = self._interruptibly(lambda: self.backend.relation_type(name), text)
        except self.backend.errors as error:
            raise SqlnbError(messages.one_line(error), sql=text) from None
        return found if probed is None else probed.setdefault(name, found)

    @contextlib.contextmanager
    def probing(self) -> Iterator[None]:
        """A command's reads and writes: sqlnb's relations listed once (:meth:`relation_type`;
        again after its CREATE, DROP or ALTER, or a rollback), trust checked once."""
        outer, self._probed = self._probed is None, {} if self._probed is None else self._probed
        try:
            yield
        finally:
            self._probed = None if outer else self._probed

    def exists(self, table_node: exp.Table) -> bool:
        """Whether a table exists; one that cannot be read for another reason is that error."""
        try:
            self.columns(table_node)
        except MissingTable:
            return False
        return True
