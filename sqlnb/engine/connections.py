"""Which backend serves a database URL or an open connection."""

from __future__ import annotations

import importlib
import sqlite3
from pathlib import Path
from typing import Any

import duckdb

from sqlnb.engine import messages
from sqlnb.engine.backends import (
    Backend,
    DuckDBBackend,
    PostgresBackend,
    SparkBackend,
    SQLiteBackend,
)
from sqlnb.engine.clickhouse import CLICKHOUSE_SETTINGS, ClickHouseBackend
from sqlnb.errors import SqlnbError


def backend_for(connection: Any) -> tuple[Backend, str] | None:
    """The backend and dialect name of an open connection, or None if it is not one."""
    if isinstance(connection, duckdb.DuckDBPyConnection):
        return DuckDBBackend(connection), "duckdb"
    if isinstance(connection, sqlite3.Connection):
        return SQLiteBackend(connection), "sqlite"
    package = type(connection).__module__.split(".")[0]
    if package == "psycopg":
        return PostgresBackend(connection), "postgres"
    if package == "pyspark":
        return SparkBackend(connection), "spark"
    if package == "clickhouse_connect":
        return ClickHouseBackend(connection), "clickhouse"
    return None


def open_url(url: str) -> tuple[Backend, str]:
    """The backend and dialect name of a database URL: ``postgresql://...``,
    ``spark://MASTER`` (configured as Spark's own configuration says: SPARK_CONF_DIR), or
    ClickHouse: ``chdb:///folder`` (chDB in this process, its data in that folder) or
    ``clickhouse://user:password@host:8123/database`` (a server)."""
    scheme = url.split("://", 1)[0]
    if scheme in ("postgresql", "postgres"):
        psycopg = driver("psycopg", "PostgreSQL", "postgres")
        try:
            return PostgresBackend(psycopg.connect(url, autocommit=True)), "postgres"
        except psycopg.Error as error:
            raise SqlnbError(f"cannot connect to {url!r}: {messages.one_line(error)}") from None
    if scheme == "spark":
        sql = driver("pyspark.sql", "Spark", "spark")
        master = url.removeprefix("spark://")
        builder = sql.SparkSession.builder.master(master).appName("sqlnb")
        return SparkBackend(builder.getOrCreate()), "spark"
    if scheme in ("chdb", "clickhouse"):
        return ClickHouseBackend(client(url)), "clickhouse"
    raise SqlnbError(
        f"unsupported database URL {url!r}: use a DuckDB path, sqlite:///, postgresql://, "
        "spark://, chdb:/// or clickhouse://"
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
