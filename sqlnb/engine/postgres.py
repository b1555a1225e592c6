"""PostgreSQL's :class:`Backend`: psycopg, the models' schema, and the safe search_path every
statement runs with."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from sqlglot import exp

from sqlnb.engine import messages, trust
from sqlnb.engine.backends import Backend, Row, literal
from sqlnb.engine.dialects import duckdb_type
from sqlnb.errors import SqlnbError

# What every statement sqlnb runs on PostgreSQL resolves its names in: pg_catalog alone for
# functions, operators and types, so that no other role's object in a schema it can write to
# (an operator in public, a schema named after the caller) is ever chosen; tables are named with
# their schema (see PostgresBackend.prepare), pg_temp searched last and only for sqlnb's own
# temporary tables. PostgreSQL's guidance for SECURITY DEFINER functions, applied to every
# statement and to the SQL functions sqlnb creates.
SAFE_PATH = "pg_catalog, pg_temp"
TRANSACTION_CONTROL = ("BEGIN", "START", "COMMIT", "ROLLBACK")
WAIT = 30.0  # the seconds a write waits for a lock, unless told (--wait)


class PostgresBackend(Backend):
    """PostgreSQL through psycopg. Models live in one schema, :attr:`schema`: the first schema
    the connection's search_path names explicitly (``"$user"`` is skipped, so that a schema
    named after the caller never captures the models; default ``public``). Every statement runs
    in a transaction whose search_path is :data:`SAFE_PATH`, and every table it names is
    qualified with its schema first (:meth:`prepare`)."""

    counts_created = True
    returns_rows = True

    def __init__(self, connection: Any, *, wait: float = WAIT) -> None:
        import psycopg

        self.errors = (psycopg.Error,)
        self._idle = psycopg.pq.TransactionStatus.IDLE
        connection.autocommit = True  # transactions are explicit BEGIN / COMMIT
        super().__init__(connection)
        self.path = self._explicit_path()
        self.home: str = self.path[0]
        self.schema = self.home
        self._found: dict[str, str] = {}  # table name -> the schema it was found in
        # The seconds a write waits for a lock another session holds (then it stops).
        self.wait = wait
        self._writing = False  # whether the transaction running writes models
        self._created = False  # whether it ran a CREATE ... IF NOT EXISTS since its checks

    def _explicit_path(self) -> list[str]:
        """The existing schemas that search_path names, in order, without "$user"."""
        with self.connection.cursor() as cursor:
            (setting,) = cursor.execute(
                "SELECT pg_catalog.current_setting('search_path')"
            ).fetchone()
            named = [
                n
                for n in search_path_names(str(setting))
                if n != "$user" and n != "pg_catalog" and not n.startswith("pg_temp")
            ]
            found = {
                r[0]
                for r in cursor.execute(
                    "SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname = ANY(%s)", [named]
                ).fetchall()
            }
        path = [n for n in named if n in found]
        if not path:
            raise SqlnbError(
                f"no schema to keep models in: search_path is {setting!r}, and sqlnb uses the "
                'first schema it names that exists (not "$user"); set it, e.g. '
                "postgresql://host/db?options=-csearch_path%3Dmyschema"
            )
        return path

    @contextlib.contextmanager
    def _guarded(self) -> Iterator[Any]:
        """A cursor inside a transaction whose search_path is :data:`SAFE_PATH`: sqlnb's own
        (set when it began, :meth:`opening`), or one around this statement alone."""
        with self.connection.cursor() as cursor:
            if self.connection.info.transaction_status != self._idle:
                yield cursor
                return
            with self.connection.transaction():
                cursor.execute(f"SET LOCAL search_path = {SAFE_PATH}")
                yield cursor

    def opening(self, *, writing: bool = True) -> list[str]:
        """Run first in every transaction sqlnb runs: the safe search_path; where it writes,
        a bound on every wait for a lock (:attr:`wait`)."""
        guard = f"SET LOCAL search_path = {SAFE_PATH}"
        if not writing:
            return [guard]
        bound = max(1, round(self.wait * 1000))  # 0 would wait for ever
        return [guard, f"SET LOCAL lock_timeout = {bound}"]

    def trust(self, fetch: Callable[[str], list[Row]], *, writing: bool) -> None:
        trust.verify(fetch, self.home, writing=writing)

    def opened(self, fetch: Callable[[str], list[Row]], *, writing: bool) -> None:
        """Refuse an object named ``sqlnb_*`` in the models' schema that sqlnb may not trust;
        a transaction that writes models then takes the writers' lock (READ COMMITTED would
        let two trainings of one model both delete the old rows and both insert theirs: the
        second now waits for the first, then replaces it whole), and checks again what may
        have changed while it waited (:mod:`sqlnb.engine.trust`)."""
        trust.verify(fetch, self.home, writing=writing)
        self._writing = writing
        if not writing:
            return
        try:
            trust.lock(fetch, self.home)
        except SqlnbError as error:
            if not str(error).startswith(messages.LOCK_TIMEOUT):
                raise
            raise SqlnbError(
                f"the models in schema {self.home!r} are being written by another session: "
                f"still locked after {self.wait:g} s; try again when it has finished, or give "
                "--wait SECONDS to wait longer"
            ) from None
        trust.verify(fetch, self.home, writing=writing)

    def prepare(self, tree: exp.Expr) -> exp.Expr:
        """``tree`` with every table it names (but a CTE's, or a temporary table it creates)
        qualified with its schema: found in this session's temporary schema or the explicit
        search path, in that order, else the models' schema (a table about to be created, or
        missing: the engine then says so)."""
        ctes = {c.alias_or_name for c in tree.find_all(exp.CTE)}

        def unqualified(t: exp.Table) -> bool:
            return (
                isinstance(t.this, exp.Identifier)
                and not t.args.get("db")
                and t.name not in ctes
                and not _created_temporary(t)
            )

        if not any(unqualified(t) for t in tree.find_all(exp.Table)):
            return tree
        tree = tree.copy()
        for t in list(tree.find_all(exp.Table)):
            if unqualified(t):
                t.set("db", exp.to_identifier(self.schema_of(t.name), quoted=True))
        return tree

    def schema_of(self, name: str) -> str:
        """The schema of table ``name``: this session's temporary schema (``pg_temp``), else the
        first schema of the explicit search path that has it, else the models' schema."""
        if name in self._found:
            return self._found[name]
        with self._guarded() as cursor, _one_line(self.errors):
            row = cursor.execute(
                "SELECT CASE WHEN n.oid = pg_catalog.pg_my_temp_schema() THEN 'pg_temp' "
                "ELSE n.nspname END FROM pg_catalog.pg_class AS c "
                "JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace "
                "WHERE c.relname = %s AND (n.oid = pg_catalog.pg_my_temp_schema() "
                "OR n.nspname = ANY(%s)) ORDER BY CASE WHEN n.oid = "
                "pg_catalog.pg_my_temp_schema() THEN 0 ELSE pg_catalog.array_position(%s, "
                "n.nspname::text) END LIMIT 1",
                [name, self.path, self.path],
            ).fetchone()
        if row is None:
            return self.home
        self._found[name] = str(row[0])
        return self._found[name]

    def run(self, text: str, fetch: bool) -> list[Row]:
        head = text.lstrip()[:40].upper()
        if head.split(None, 1)[0] in TRANSACTION_CONTROL:  # sqlnb's own transaction
            self._created = self._writing = False
            self.connection.execute(text.encode())
            return []
        if self._created and not head.startswith("CREATE TABLE IF NOT EXISTS"):
            # A CREATE ... IF NOT EXISTS skips a table another role made since the checks:
            # check again after them, before any statement that uses the tables.
            self._created = False
            trust.verify(lambda query: self.run(query, True), self.home, writing=True)
        with self._guarded() as cursor:
            cursor.execute(text.encode())
            rows = list(cursor.fetchall()) if fetch and cursor.description else []
            if fetch and head.startswith("CREATE TABLE") and cursor.rowcount >= 0:
                rows = [(cursor.rowcount,)]  # CREATE ... AS: the rows it wrote (its tag)
        if head.startswith("CREATE TABLE IF NOT EXISTS"):
            self._created = self._writing
        return rows

    def describe(self, text: str) -> dict[str, str]:
        import psycopg

        with self._guarded() as cursor:
            cursor.execute(text.encode())
            types = psycopg.postgres.types
            return {
                d.name: duckdb_type(getattr(types.get(d.type_code), "name", "text"))
                for d in cursor.description
            }

    def relation_type(self, name: str) -> str | None:
        """From the system catalog, which lists every table (information_schema shows only the
        ones the role may read: a table it may not read is then an error, not a missing table)."""
        found = self.run(
            "SELECT c.relkind FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_namespace AS n "
            f"ON n.oid = c.relnamespace WHERE c.relname = {literal(name)} "
            f"AND n.nspname = {literal(self.home)}",
            True,
        )
        if not found:
            return None
        return "view" if found[0][0] in ("v", "m") else "table"

    def relations(self) -> dict[str, str] | None:
        found = self.run(
            "SELECT c.relname, c.relkind FROM pg_catalog.pg_class AS c JOIN "
            "pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace WHERE c.relname LIKE "
            f"'sqlnb%' AND n.nspname = {literal(self.home)}",
            True,
        )
        return {str(n): "view" if k in ("v", "m") else "table" for n, k in found}

    def write_csv(self, text: str, path: Path) -> None:
        with self._guarded() as cursor, path.open("wb") as out:
            cursor.execute("SET LOCAL extra_float_digits = 1")  # the shortest exact text
            cursor.execute("SET LOCAL DateStyle = ISO")  # dates and times as DuckDB reads them
            with cursor.copy(f"COPY ({text}) TO STDOUT (FORMAT csv)".encode()) as copy:
                for chunk in copy:
                    out.write(chunk)

    def read_csv(self, path: Path, name: str) -> None:
        copying = f"COPY {name} FROM STDIN (FORMAT csv)".encode()
        with self._guarded() as cursor, path.open("rb") as rows, cursor.copy(copying) as copy:
            while chunk := rows.read(1 << 20):
                copy.write(chunk)


@contextlib.contextmanager
def _one_line(errors: tuple[type[BaseException], ...]) -> Iterator[None]:
    """The driver's errors as :class:`SqlnbError` (a query sqlnb runs while it builds one)."""
    try:
        yield
    except errors as error:
        raise SqlnbError(str(error).strip().splitlines()[0]) from None


def _created_temporary(table: exp.Table) -> bool:
    """Whether ``table`` is the name a CREATE TEMPORARY TABLE creates (it goes to pg_temp)."""
    create = table.parent.parent if isinstance(table.parent, exp.Schema) else table.parent
    return isinstance(create, exp.Create) and create.find(exp.TemporaryProperty) is not None


def search_path_names(setting: str) -> list[str]:
    """The schema names of a search_path setting, unquoted.

    >>> search_path_names('"$user", public, "My ""x"" schema"')
    ['$user', 'public', 'My "x" schema']
    """
    names, current, quoted, i = [], "", False, 0
    while i < len(setting):
        ch = setting[i]
        if quoted:
            if ch == '"' and setting[i + 1 : i + 2] == '"':
                current, i = current + '"', i + 1
            elif ch == '"':
                quoted = False
            else:
                current += ch
        elif ch == '"':
            quoted = True
        elif ch == ",":
            names.append(current.strip())
            current = ""
        else:
            current += ch.lower() if not ch.isspace() else ch
        i += 1
    if current.strip():
        names.append(current.strip())
    return [n for n in names if n]
