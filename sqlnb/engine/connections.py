"""Which backend serves a database path, URL or open connection, and opening them."""

from __future__ import annotations

import contextvars
import importlib
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from sqlnb.engine import messages
from sqlnb.engine.backends import (
    Backend,
    DuckDBBackend,
    SQLiteBackend,
)
from sqlnb.engine.dialects import CLICKHOUSE_SETTINGS
from sqlnb.errors import SqlnbError

# The storage format of the DuckDB files sqlnb creates: DuckDB 1.5's, which the DuckDB
# command-line client a user can install (pip's duckdb-cli 1.5) opens; DuckDB 2.0's own format
# is read by 2.0 only. A file keeps the format it was created in: a user's file is left in its.
DUCKDB_STORAGE = "v1.5.0"
# True where the connection that creates a DuckDB file is the only one to it in this process
# (the command line: one command, one connection): it creates the file in that format itself.
# Else the file is created by a connection of its own and opened with DuckDB's defaults (a
# Python caller may open it again: DuckDB refuses another configuration, _create_duckdb).
ALONE: contextvars.ContextVar[bool] = contextvars.ContextVar("sqlnb_alone", default=False)


def backend_for(connection: Any) -> tuple[Backend, str] | None:
    """The backend and dialect name of an open connection, or None if it is not one."""
    if isinstance(connection, duckdb.DuckDBPyConnection):
        return DuckDBBackend(connection), "duckdb"
    if isinstance(connection, sqlite3.Connection):
        return SQLiteBackend(connection), "sqlite"
    package = type(connection).__module__.split(".")[0]
    # each server's backend is imported when one is used: a DuckDB user imports none of them
    if package == "psycopg":
        from sqlnb.engine.postgres import PostgresBackend

        return PostgresBackend(connection), "postgres"
    if package == "pyspark":
        from sqlnb.engine.spark import SparkBackend

        return SparkBackend(connection), "spark"
    if package == "clickhouse_connect":
        from sqlnb.engine.clickhouse import ClickHouseBackend

        return ClickHouseBackend(connection), "clickhouse"
    return None


@dataclass(frozen=True)
class Opened:
    """A database sqlnb opened: its backend and dialect name, its path or URL, whether opening
    it created its file, and why it cannot be written to (when opened read-only)."""

    backend: Backend
    dialect: str
    path: str
    created: bool = False
    read_only: str | None = None


def open_target(text: str, *, create: bool, read_only: bool, wait: float | None) -> Opened:
    """A DuckDB file (the default), ``sqlite:///path.db`` or a ``.sqlite`` file, or a URL (see
    :func:`open_url`). Without ``create`` a missing file is an error. ``wait``: the seconds to
    wait for a DuckDB file another process holds (default 0), or for PostgreSQL's lock of the
    models another session is writing (default 30)."""
    if text.startswith("sqlite://"):
        return _open_sqlite(text.removeprefix("sqlite://").removeprefix("/"), create)
    if text.endswith((".sqlite", ".sqlite3")):
        return _open_sqlite(text, create)
    if text.startswith("chdb://"):  # a folder: removed again if a failed command created it
        folder = Path(text.removeprefix("chdb://")).resolve()
        existed = folder.exists()
        backend, name = open_url(text)
        return Opened(backend, name, str(folder), created=not existed)
    if "://" in text or _is_spark_url(text):
        backend, name = open_url(text)
        if name == "postgres" and wait is not None:
            from sqlnb.engine.postgres import PostgresBackend

            if isinstance(backend, PostgresBackend):
                backend.wait = wait
        return Opened(backend, name, text)
    if text != ":memory:" and not create and not Path(text).exists():
        raise SqlnbError(f"database file {text!r} does not exist")
    return _open_duckdb(text, read_only, wait or 0.0)


def _open_duckdb(path: str, read_only: bool, wait: float) -> Opened:
    """A DuckDB file. One another process holds is a clear 'locked' error (DuckDB lets one
    process write a file, or several read it), after waiting up to ``wait`` seconds for it; a
    file this process may not write is opened read-only, so that reading works and writing is
    a clear error."""
    reason = "it was opened read-only" if read_only else None
    created = path != ":memory:" and not Path(path).exists()
    try:
        connection = _duckdb_waiting(path, read_only, wait)
    except duckdb.Error as error:
        message = messages.one_line(error)
        if messages.is_lock_error(message):
            raise SqlnbError(messages.locked(path, message, wait)) from None
        if read_only or not messages.is_permission_error(message) or not Path(path).is_file():
            raise SqlnbError(f"cannot open {path!r}: {message}") from None
        try:
            connection = duckdb.connect(path, read_only=True)
        except duckdb.Error as again:
            raise SqlnbError(f"cannot open {path!r}: {messages.one_line(again)}") from None
        reason = "its file is not writable"
    return Opened(DuckDBBackend(connection, own=True), "duckdb", path, created, reason)


def _duckdb_waiting(path: str, read_only: bool, wait: float) -> duckdb.DuckDBPyConnection:
    """``duckdb.connect``, tried again while another process holds the file, for up to
    ``wait`` seconds; the last error if it still does."""
    deadline = time.monotonic() + wait
    config: dict[str, str | bool | int | float | list[str]] = {}
    if path != ":memory:" and not read_only and not Path(path).exists():
        if ALONE.get():  # one open, not two (a new file's: 14 ms of CPU, 35 ms at a load of 6)
            config["storage_compatibility_version"] = DUCKDB_STORAGE
        else:
            _create_duckdb(path)
    while True:
        try:
            return duckdb.connect(path, read_only=read_only, config=config)
        except duckdb.Error as error:
            if not messages.is_lock_error(str(error)) or time.monotonic() >= deadline:
                raise
        time.sleep(0.05)


def _create_duckdb(path: str) -> None:
    """An empty DuckDB file in the storage format :data:`DUCKDB_STORAGE`, by a connection of
    its own: sqlnb's connection then opens it with DuckDB's defaults, as any other in this
    process would (DuckDB refuses a second connection to a file with another configuration)."""
    config: dict[str, str | bool | int | float | list[str]] = {
        "storage_compatibility_version": DUCKDB_STORAGE
    }
    duckdb.connect(path, config=config).close()


def _open_sqlite(path: str, create: bool) -> Opened:
    created = path != ":memory:" and not Path(path).exists()
    if created and not create:
        raise SqlnbError(f"database file {path!r} does not exist")
    try:
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as error:  # a folder that does not exist, a file it cannot write
        raise SqlnbError(f"cannot open SQLite file {path!r}: {error}") from None
    return Opened(SQLiteBackend(connection, threaded=True), "sqlite", path, created)


def open_url(url: str) -> tuple[Backend, str]:
    """The backend and dialect name of a database URL: ``postgresql://...``, Spark
    (``local[N]``, ``spark://HOST:PORT``, ``sc://HOST:PORT``: see :mod:`sqlnb.engine.spark`), or
    ClickHouse: ``chdb:///folder`` (chDB in this process, its data in that folder) or
    ``clickhouse://user:password@host:8123/database`` (a server)."""
    scheme = url.split("://", 1)[0]
    if scheme in ("postgresql", "postgres"):
        from sqlnb.engine.postgres import PostgresBackend

        psycopg = driver("psycopg", "PostgreSQL", "postgres")
        try:
            return PostgresBackend(psycopg.connect(url, autocommit=True)), "postgres"
        except psycopg.Error as error:
            raise SqlnbError(f"cannot connect to {url!r}: {messages.one_line(error)}") from None
    if _is_spark_url(url):
        from sqlnb.engine.spark import SparkBackend, open_session

        driver("pyspark.sql", "Spark", "spark")
        return SparkBackend(open_session(url), owned=True, alone=ALONE.get()), "spark"
    if scheme in ("chdb", "clickhouse"):
        from sqlnb.engine.clickhouse import ClickHouseBackend

        return ClickHouseBackend(client(url)), "clickhouse"
    raise SqlnbError(
        f"unsupported database URL {url!r}: use a DuckDB path, sqlite:///, postgresql://, "
        "local[N], spark://, sc://, chdb:/// or clickhouse://"
    )


def client(url: str) -> Any:
    """A clickhouse-connect client of ``chdb:///folder`` or ``clickhouse://...``."""
    from urllib.parse import unquote, urlsplit

    connect = driver("clickhouse_connect", "ClickHouse", "clickhouse")
    settings = CLICKHOUSE_SETTINGS
    if url.startswith("chdb://"):
        driver("chdb", "chDB", "clickhouse")
    try:
        if url.startswith("chdb://"):
            folder = Path(url.removeprefix("chdb://")).resolve()
            return connect.get_client(interface="chdb", path=str(folder), settings=settings)
        parts = urlsplit(url)
        return connect.get_client(
            host=parts.hostname or "localhost",
            port=parts.port or 8123,
            username=unquote(parts.username or "default"),
            password=unquote(parts.password or ""),
            database=parts.path.strip("/") or "default",
            settings=settings,
        )
    except Exception as error:  # the driver's errors, for a clear line
        raise SqlnbError(f"cannot connect to {url!r}: {messages.one_line(error)}") from None


def driver(module: str, engine: str, extra: str) -> Any:
    """The driver module, or a clear error naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        package = module.split(".")[0]
        raise SqlnbError(f"{engine} needs {package}: pip install 'sqlnb[{extra}]'") from None


def _is_spark_url(text: str) -> bool:
    """:func:`sqlnb.engine.spark.is_spark_url` (its module imported only for a text that may
    be one: a DuckDB or SQLite path is none)."""
    if not text.startswith(("spark://", "sc://", "local")):
        return False
    from sqlnb.engine.spark import is_spark_url

    return is_spark_url(text)
