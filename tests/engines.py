"""The engines sqlnb runs on, for tests: a connection each, and a way to load a frame.

PostgreSQL is reached at $SQLNB_TEST_POSTGRES (default: postgres on 127.0.0.1:54329, as .ci/run
starts it); Spark is a local[2] session; ClickHouse is chDB in this process (one folder per
process, a database per test). An engine whose server or package is missing is skipped
with the reason, except under CI (CI=true), where that is a failure.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import duckdb
import pandas as pd
import pytest

import sqlnb

POSTGRES_URL = os.environ.get(
    "SQLNB_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:54329/postgres"
)
ENGINES = ["duckdb", "sqlite", "postgres", "spark", "clickhouse"]
_counter = itertools.count()


def unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"in CI every engine must run: {reason}")
    pytest.skip(reason)


class Engine:
    """A fresh, empty namespace on one engine."""

    def __init__(self, name: str, db: sqlnb.Database) -> None:
        self.name, self.db = name, db

    def load(self, table: str, frame: pd.DataFrame) -> None:
        if self.name == "duckdb":
            self.db.connection.register("frame", frame)
            self.db.connection.execute(f'CREATE TABLE "{table}" AS SELECT * FROM frame')
            self.db.connection.unregister("frame")
        elif self.name == "sqlite":
            frame.to_sql(table, self.db.connection, index=False)
        elif self.name == "postgres":
            types = {"int64": "BIGINT", "float64": "DOUBLE PRECISION", "bool": "BOOLEAN"}
            columns = ", ".join(
                f'"{c}" {types.get(str(t), "TEXT")}' for c, t in frame.dtypes.items()
            )
            with self.db.connection.cursor() as cursor:
                cursor.execute(f'CREATE TABLE "{table}" ({columns})')
                marks = ", ".join(["%s"] * len(frame.columns))
                rows = [
                    tuple(
                        None if pd.isna(v) else v.item() if hasattr(v, "item") else v for v in row
                    )
                    for row in frame.itertuples(index=False)
                ]
                cursor.executemany(f'INSERT INTO "{table}" VALUES ({marks})', rows)
        elif self.name == "clickhouse":
            types = {"int64": "Int64", "float64": "Float64", "bool": "Bool"}
            columns = ", ".join(
                f"`{c}` Nullable({types.get(str(t), 'String')})" for c, t in frame.dtypes.items()
            )
            client = self.db.connection
            client.command(
                f"CREATE TABLE `{table}` ({columns}) ENGINE = MergeTree ORDER BY tuple()"
            )
            if len(frame):
                client.insert_df(table, frame)
        else:
            from pyspark.sql import types as T

            kinds = {"int64": T.LongType(), "float64": T.DoubleType(), "bool": T.BooleanType()}
            schema = T.StructType(
                [
                    T.StructField(c, kinds.get(str(t), T.StringType()))
                    for c, t in frame.dtypes.items()
                ]
            )
            rows = [
                tuple(None if pd.isna(v) else v.item() if hasattr(v, "item") else v for v in row)
                for row in frame.itertuples(index=False)
            ]
            spark = self.db.connection
            spark.createDataFrame(rows, schema).write.saveAsTable(table)


_spark = None


def spark_session():
    global _spark
    if _spark is None:
        try:
            from pyspark.sql import SparkSession
        except ImportError:
            unavailable("pyspark is not installed (pip install 'sqlnb[spark]')")
        import tempfile

        from sqlnb.engine.jvm import class_data_archive

        warehouse = tempfile.mkdtemp(prefix="sqlnb-spark-")
        # Test-only settings for tiny tables (issue 36: the in-process Spark lane is CPU-bound):
        # no whole-stage code generation (a Janino compilation per query costs more than its
        # rows), no adaptive execution and one shuffle partition. sqlnb's SQL still runs under
        # Spark's defaults (whole-stage codegen, AQE) in the spark-processes part of CI: its own
        # sessions (local, a standalone cluster) and a Connect server, against DuckDB's labels
        # (tests/test_spark.py's process tests). The compiled expressions' cache holds 1,000
        # classes instead of 100: the tests' queries compile the same ones again and again (a
        # training and prediction repeated in one session: -12% CPU, two runs of six).
        # Expressions are interpreted, not compiled (``spark.sql.codegen.factoryMode``
        # NO_CODEGEN, Spark's own test mode; the catalog's calls excepted, below): a Janino
        # compilation per projection and predicate costs more than tens of rows.
        # The JVM maps the classes it loads from sqlnb's class-data-sharing archive where a
        # command has made it (sqlnb.engine.jvm), as sqlnb's own sessions do: the classes
        # Spark loads as the tests go, not only at its start (tests/test_contract.py's 6
        # Spark tests: 48.5 and 57.3 -> 41.7 and 44.3 CPU-s of the JVM, interleaved, load 28-36).
        builder = SparkSession.builder
        archive = class_data_archive()
        if archive is not None:
            sharing = f"-XX:SharedArchiveFile={archive} -Xshare:auto -Xlog:disable"
            builder = builder.config("spark.driver.extraJavaOptions", sharing)
        _spark = (
            builder.master("local[2]")
            .appName("sqlnb-tests")
            .config("spark.sql.warehouse.dir", warehouse)
            .config("spark.sql.shuffle.partitions", "1")
            .config("spark.sql.codegen.wholeStage", "false")
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.sql.codegen.cache.maxEntries", "1000")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate()
        )
        _spark.sparkContext.setLogLevel("ERROR")
        _spark.conf.set(FACTORY_MODE, "NO_CODEGEN")
        _catalog_compiled()
    return _spark


FACTORY_MODE = "spark.sql.codegen.factoryMode"


def _catalog_compiled() -> None:
    """pyspark's catalog calls (``listTables``, ``getTable``, ...) in Spark's usual mode,
    compiled where it can: they decode Scala objects (a catalog ``Table``), which Spark's
    interpreted expressions cannot build (``EXPRESSION_DECODING_FAILED``)."""
    import functools

    from pyspark.sql.catalog import Catalog

    depth = [0]  # a catalog call calls others: the outermost one restores the mode

    def compiled(method):
        @functools.wraps(method)
        def call(self, *args, **kwargs):
            conf = self._sparkSession.conf
            before = conf.get(FACTORY_MODE, "FALLBACK") if depth[0] == 0 else None
            if before is not None:
                conf.set(FACTORY_MODE, "FALLBACK")
            depth[0] += 1
            try:
                return method(self, *args, **kwargs)
            finally:
                depth[0] -= 1
                if before is not None:
                    conf.set(FACTORY_MODE, before)

        return call

    for name, method in list(vars(Catalog).items()):
        if callable(method) and not name.startswith("_"):
            setattr(Catalog, name, compiled(method))


_chdb = None


def chdb_client():
    """One chDB client for the process (chDB opens one folder per process)."""
    global _chdb
    if _chdb is None:
        try:
            import chdb  # noqa: F401
            import clickhouse_connect
        except ImportError:
            unavailable("chdb is not installed (pip install 'sqlnb[clickhouse]')")
        import tempfile

        folder = tempfile.mkdtemp(prefix="sqlnb-chdb-")
        _chdb = clickhouse_connect.get_client(
            interface="chdb", path=folder, settings={"join_use_nulls": 1}
        )
    return _chdb


def open_engine(name: str) -> Iterator[Engine]:
    namespace = f"sqlnb_test_{os.getpid()}_{next(_counter)}"
    if name == "duckdb":
        db = sqlnb.connect(duckdb.connect())
        yield Engine(name, db)
        db.close()
    elif name == "sqlite":
        db = sqlnb.connect(sqlite3.connect(":memory:", isolation_level=None))
        yield Engine(name, db)
        db.close()
    elif name == "postgres":
        try:
            import psycopg
        except ImportError:
            unavailable("psycopg is not installed (pip install 'sqlnb[postgres]')")
        try:
            connection = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3)
        except psycopg.Error as error:
            unavailable(f"no PostgreSQL at {POSTGRES_URL}: {str(error).strip()[:80]}")
        connection.execute(f"CREATE SCHEMA {namespace}")
        connection.execute(f"SET search_path TO {namespace}")
        yield Engine(name, sqlnb.connect(connection))
        connection.execute(f"DROP SCHEMA {namespace} CASCADE")
        connection.close()
    elif name == "clickhouse":
        client = chdb_client()
        client.command(f"CREATE DATABASE {namespace}")
        client.command(f"USE {namespace}")
        yield Engine(name, sqlnb.connect(client))
        client.command("USE default")
        client.command(f"DROP DATABASE {namespace} SYNC")
    else:
        spark = spark_session()
        spark.sql(f"CREATE DATABASE {namespace}")
        spark.sql(f"USE {namespace}")
        yield Engine(name, sqlnb.connect(spark))
        spark.sql("USE default")
        spark.sql(f"DROP DATABASE {namespace} CASCADE")


_DUCKDB: dict[Any, Any] = {}  # DuckDB's results, computed once per test process (issue 36)


def duckdb_results(key: Any, compute: Callable[[Engine], Any]) -> Any:
    """``compute(reference)`` on a fresh DuckDB, once per test process for every engine
    compared with it (``key`` names what is computed, in every module that asks): DuckDB's
    side of a comparison does not depend on the engine it is compared with."""
    if key not in _DUCKDB:
        for reference in open_engine("duckdb"):
            _DUCKDB[key] = compute(reference)
    return _DUCKDB[key]
