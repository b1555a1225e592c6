"""ClickHouse's backend: a server through clickhouse-connect, or chDB (ClickHouse in this
process, its data in a folder) through clickhouse-connect's chDB interface."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import duckdb

from sqlnb.engine.backends import Backend, Row, literal, quoted
from sqlnb.engine.dialects import CLICKHOUSE_SETTINGS, duckdb_type


class ClickHouseBackend(Backend):
    """ClickHouse through clickhouse-connect: a server over HTTP, or chDB in this process (its
    ``interface="chdb"``), with ``join_use_nulls`` so that an outer join gives NULL, not 0."""

    def __init__(self, client: Any) -> None:
        from clickhouse_connect.driver.exceptions import ClickHouseError

        self.errors = (ClickHouseError, RuntimeError)
        for name, value in CLICKHOUSE_SETTINGS.items():
            client.set_client_setting(name, value)
        super().__init__(client)

    def run(self, text: str, fetch: bool) -> list[Row]:
        try:
            if fetch:
                return [tuple(r) for r in self.connection.query(text).result_rows]
            self.connection.command(text)
            return []
        except self.errors:
            # chDB keeps what a failed query wrote and hands it to the next query: absorb it
            with contextlib.suppress(*self.errors):
                self.connection.query("SELECT 1")
            raise

    def describe(self, text: str) -> dict[str, str]:
        result = self.connection.query(text)
        return {
            n: duckdb_type(_clickhouse_type(t.name))
            for n, t in zip(result.column_names, result.column_types)
        }

    def write_parquet(self, text: str, path: Path, types: dict[str, str]) -> None:
        """The rows as Arrow (exact floats), written by an in-memory DuckDB with the types."""
        rows = self.connection.query_arrow(text)
        columns = ", ".join(f"CAST({quoted(n)} AS {t}) AS {quoted(n)}" for n, t in types.items())
        with duckdb.connect() as mem:
            mem.register("sqlnb_rows", rows)
            mem.execute(
                f"COPY (SELECT {columns} FROM sqlnb_rows) TO {literal(str(path))} (FORMAT parquet)"
            )

    def load_parquet(self, path: Path, name: str, create: str) -> None:
        self.run(create, False)
        with duckdb.connect() as mem:
            rows = mem.sql(f"SELECT * FROM read_parquet({literal(str(path))})").to_arrow_table()
        self.connection.insert_arrow(name, rows)

    def relation_type(self, name: str) -> str | None:
        found = self.run(
            "SELECT engine FROM system.tables "
            f"WHERE database = currentDatabase() AND name = {literal(name)}",
            True,
        )
        if not found:
            return None
        return "view" if "View" in str(found[0][0]) else "table"

    def relations(self) -> dict[str, str] | None:
        found = self.run(
            "SELECT name, engine FROM system.tables "
            "WHERE database = currentDatabase() AND name LIKE 'sqlnb%'",
            True,
        )
        return {str(n): "view" if "View" in str(e) else "table" for n, e in found}


CLICKHOUSE_TYPES = {
    "Float64": "DOUBLE",
    "Float32": "FLOAT",
    "String": "VARCHAR",
    "Int8": "TINYINT",
    "Int16": "SMALLINT",
    "Int32": "INTEGER",
    "Int64": "BIGINT",
    "UInt8": "UTINYINT",
    "UInt16": "USMALLINT",
    "UInt32": "UINTEGER",
    "UInt64": "UBIGINT",
    "Bool": "BOOLEAN",
    "Date": "DATE",
    "DateTime": "TIMESTAMP",
    "DateTime64": "TIMESTAMP",
    "Decimal": "DECIMAL",
}


def _clickhouse_type(name: str) -> str:
    """A ClickHouse type name in DuckDB's spelling.

    >>> _clickhouse_type("Nullable(Float64)"), _clickhouse_type("DateTime64(6)")
    ('DOUBLE', 'TIMESTAMP')
    >>> _clickhouse_type("LowCardinality(Nullable(String))"), _clickhouse_type("Decimal(10, 2)")
    ('VARCHAR', 'DECIMAL(10, 2)')
    """
    while name.startswith(("Nullable(", "LowCardinality(")):
        name = name.partition("(")[2][:-1]
    base, parameters = name.partition("(")[0], name[len(name.partition("(")[0]) :]
    if base == "Decimal":
        return "DECIMAL" + parameters
    return CLICKHOUSE_TYPES.get(base, name)
