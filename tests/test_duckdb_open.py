"""A DuckDB file sqlnb creates is opened once by the command line (issue 38: the fixed cost of
a first training), in DuckDB 1.5's storage format either way (tests/test_duckdb_storage.py);
a Python caller's file is created aside and opened with DuckDB's defaults, so that the caller
can open it again in the same process."""

from __future__ import annotations

from typing import Any

import cli
import duckdb
import pytest
from test_duckdb_storage import storage

from sqlnb.engine import Database, connections


@pytest.fixture()
def opens(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Every ``duckdb.connect`` of a file by sqlnb's connections module: (path, config)."""
    seen: list[tuple[str, dict[str, Any]]] = []
    real = duckdb.connect

    def connect(database: str = ":memory:", *args: Any, **kwargs: Any) -> Any:
        if database != ":memory:":
            seen.append((database, dict(kwargs.get("config") or {})))
        return real(database, *args, **kwargs)

    monkeypatch.setattr(connections.duckdb, "connect", connect)
    return seen


def test_the_command_line_opens_a_new_file_once(tmp_path, opens):
    with duckdb.connect() as con:
        con.execute("COPY (SELECT 1 AS doc_id, 'good food' AS text, 'good' AS label UNION ALL "
                    f"SELECT 2, 'bad food', 'bad') TO '{tmp_path / 'docs.parquet'}'")  # fmt: skip
    db = tmp_path / "new.duckdb"
    cli.run("train", db, "--docs", tmp_path / "docs.parquet", "--model", "m", ok=True)
    assert opens == [(str(db), {"storage_compatibility_version": connections.DUCKDB_STORAGE})]
    assert storage(db) == "v1.5.0+"
    opens.clear()  # an existing file: opened as it is, with DuckDB's defaults
    cli.run("show", db, "--model", "m", ok=True)
    assert opens == [(str(db), {})]
    assert not connections.ALONE.get()  # (the command line's setting ends with its opening)


def test_a_python_callers_new_file_opens_again_in_the_same_process(tmp_path, opens):
    db = tmp_path / "new.duckdb"
    database = Database.connect(str(db), create=True)
    try:
        assert [config for _, config in opens] == [
            {"storage_compatibility_version": connections.DUCKDB_STORAGE},  # creating it
            {},  # sqlnb's connection, with DuckDB's defaults
        ]
        with duckdb.connect(str(db)) as again:  # another configuration would be refused
            assert again.execute("SELECT 42").fetchall() == [(42,)]
    finally:
        database.close()
    assert storage(db) == "v1.5.0+"
