"""Engines' error messages as one line that says what happened and names what is at fault.

>>> missing_name('Catalog Error: Table with name tokns does not exist!')
'tokns'
>>> locked("db.duckdb", "IO Error: Could not set lock on file: Conflicting lock (PID 42)")[:60]
"database 'db.duckdb' is locked: another process (PID 42) is "
"""

from __future__ import annotations

import re

from sqlglot import exp

LOCK_TIMEOUT = "another session holds a lock on a table this command writes"


# The message of SQL's own raise_error(), as Spark reports it; wherever it is in an error's
# text: classic Spark's broadcasts wrap it in a Java ExecutionException (a py4j traceback).
_RAISED = re.compile(r"\[USER_RAISED_EXCEPTION\] (.*?)(?: SQLSTATE: \w+)?$", re.MULTILINE)


def one_line(error: BaseException) -> str:
    """An engine's error message reduced to its first line; a message the query raised
    itself (Spark's ``raise_error``: sql/predict/current.sql), however the driver wraps it.

    >>> one_line(RuntimeError("[USER_RAISED_EXCEPTION] model 'm' was retrained SQLSTATE: P0001"))
    "model 'm' was retrained"
    >>> one_line(RuntimeError("An error occurred while calling o1.sql.\\n: java.util.concurrent."
    ...     "ExecutionException: org.apache.spark.SparkRuntimeException: [USER_RAISED_EXCEPTION] "
    ...     "no 'm' SQLSTATE: P0001\\n\\tat java.base/..."))
    "no 'm'"
    """
    raised = _RAISED.search(str(error))
    if raised is not None:
        return raised.group(1)
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def explain(error: BaseException, path: str | None, read_only: str | None) -> str:
    """An engine's error while running a statement, as one line: a read-only or locked
    database, a missing table, a write conflict; else the engine's own first line."""
    message = one_line(error)
    lowered = message.lower()
    if "read-only mode" in lowered or "readonly database" in lowered:
        why = read_only or "it was opened read-only"
        name = f"database {path!r}" if path else "the database"
        return f"{name} is read-only ({why}): cannot write to it"
    if is_lock_error(message) or "database is locked" in lowered:
        return locked(path, message)
    if "lock timeout" in lowered:  # PostgreSQL's lock_timeout (see PostgresBackend.wait)
        return (
            f"{LOCK_TIMEOUT}, still after the seconds --wait allows (default 30); try again "
            "when it has finished, or give --wait SECONDS"
        )
    schema = missing_schema(message)
    if schema is not None:
        return (
            f"schema {schema!r} does not exist: a name with a dot is schema.table "
            "(create the schema first, or choose a name without a dot)"
        )
    missing = missing_name(message)
    if missing is not None:
        return f"table {missing!r} does not exist"
    if "conflict" in lowered and "transaction" in lowered:
        return (
            f"another connection changed the same tables at the same time ({message}): "
            "nothing was written; try again"
        )
    return message


def missing_table(source: exp.Expr, error: BaseException) -> tuple[str, bool]:
    """An error while reading a table's columns, as one line, and whether it says that the
    table is missing (or a view whose own tables are gone, named as such) rather than, say,
    that the role may not read it."""
    message = one_line(error)
    if isinstance(source, exp.Table) and isinstance(source.this, exp.ReadParquet):
        files = source.this.expressions
        path = files[0].name if files else ""
        if "no files found" in message.lower() or "no such file" in message.lower():
            return f"Parquet file {path!r} does not exist", True
        return f"cannot read Parquet file {path!r}: {message}", False
    if isinstance(source, exp.Table):
        name = ".".join(p.name for p in source.parts)
        whole = str(error)  # a name may hold a line break: its message is more than one line
        lowered = whole.lower()
        if is_permission_error(message):
            return message, False
        if any(
            w in lowered
            for w in (
                "does not exist",
                "no such table",
                "not found",
                "cannot be found",
                "unknown table",
            )
        ):
            # A view whose own tables are gone is not a missing table: name what is missing.
            missing = missing_name(whole)
            if missing is not None and missing.lower() != source.name.lower():
                return f"cannot read {name!r}: the table {missing!r} it reads does not exist", True
            return f"table {name!r} does not exist", True
        return f"cannot read table {name!r}: {message}", False
    return message, False


MISSING_NAME = (
    r"Table with name (.+?) does not exist",  # DuckDB
    r"no such table: (\S+)",  # SQLite
    r'relation "(.+?)" does not exist',  # PostgreSQL
    r"table or view (\S+) cannot be found",  # Spark
    r"Unknown table expression identifier '(.+?)'",  # ClickHouse
    r"Table (\S+) does not exist",  # ClickHouse
)


MISSING_SCHEMA = (
    r"Schema with name (.+?) does not exist",  # DuckDB
    r"unknown database (\S+)",  # SQLite
    r'schema "(.+?)" does not exist',  # PostgreSQL
    r"\[SCHEMA_NOT_FOUND\] The schema (\S+) cannot be found",  # Spark
    r"Database (\S+) does not exist",  # ClickHouse
)


def missing_schema(message: str) -> str | None:
    """The schema an engine reports missing, if it says.

    >>> missing_schema("Catalog Error: Schema with name p_1 does not exist!")
    'p_1'
    """
    for pattern in MISSING_SCHEMA:
        found = re.search(pattern, message, flags=re.IGNORECASE)
        if found:
            return found.group(1).strip("`\"'").split(".")[-1].strip("`\"'")
    return None


def missing_name(message: str) -> str | None:
    """The (last part of the) name of the table an engine reports missing, if it says."""
    for pattern in MISSING_NAME:
        found = re.search(pattern, message, flags=re.IGNORECASE | re.DOTALL)
        if found:
            return found.group(1).strip("`\"'").split(".")[-1].strip("`\"'")
    return None


def is_lock_error(message: str) -> bool:
    return "could not set lock" in message.lower() or "conflicting lock" in message.lower()


def is_permission_error(message: str) -> bool:
    lowered = message.lower()
    return "permission denied" in lowered or "read-only file system" in lowered


def locked(path: str | None, message: str, waited: float = 0) -> str:
    """A database another process is using, as one line (with its process id if known)."""
    pid = re.search(r"PID (\d+)", message)
    who = f"another process (PID {pid.group(1)})" if pid else "another process"
    name = f"database {path!r}" if path else "the database"
    if waited:
        return f"{name} is locked: {who} is using it, still after {waited:g} s"
    return (
        f"{name} is locked: {who} is using it; try again when it has finished, "
        "or give --wait SECONDS to wait for it"
    )
