"""DuckDB's checkpoint at close skips the vacuum where the command deleted no row (issue 35
point 5: the vacuum only merged the part-filled row groups of the command's own inserts,
rewriting a 10M-token model's scoring table on every training), keeps it where the command
deleted or replaced rows, and leaves DuckDB's setting as it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from sqlnb.engine import Database
from sqlnb.engine.backends import DuckDBBackend


class Recorder:
    """A stand-in connection: the statements run on it, in order."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def execute(self, text: str, *args: Any) -> Recorder:
        self.texts.append(text)
        return self

    def fetchone(self) -> tuple[Any, ...]:  # insertion order, vacuum, disabled optimizers
        return (True, 100, "")

    def fetchall(self) -> list[tuple[Any, ...]]:
        return []

    def close(self) -> None:
        self.texts.append("(closed)")


def closed_after(*statements: str, own: bool = True) -> list[str]:
    recorder = Recorder()
    backend = DuckDBBackend(recorder, own=own)  # type: ignore[arg-type]
    with backend.writing():
        for text in statements:
            backend.run(text, False)
    start = len(recorder.texts)
    backend.close()
    return recorder.texts[start:]


def test_an_inserting_command_checkpoints_without_the_vacuum() -> None:
    assert closed_after("CREATE TABLE t (x INT)", "INSERT INTO t SELECT 1") == [
        "SET max_vacuum_tasks = 0",
        "CHECKPOINT",
        "SET max_vacuum_tasks = 100",
        "(closed)",
    ]


def test_a_deleting_command_keeps_duckdbs_checkpoint() -> None:
    for removing in (
        "DELETE FROM t WHERE model = 'm'",
        "UPDATE t SET model = 'v' WHERE model = 'm'",
        "INSERT OR REPLACE INTO t VALUES (1)",
    ):
        assert closed_after("INSERT INTO t SELECT 1", removing) == ["(closed)"], removing


def test_a_callers_connection_is_closed_as_it_was() -> None:
    assert closed_after("INSERT INTO t SELECT 1", own=False) == ["(closed)"]


def test_a_reading_command_closes_as_it_was() -> None:
    assert closed_after("SELECT COUNT(*) FROM t") == ["(closed)"]


def test_the_setting_is_duckdbs_again_for_another_connection(tmp_path: Path) -> None:
    """A connection of the caller's to the same file shares sqlnb's database in this process:
    it must find DuckDB's vacuum setting, and the rows, as before."""
    path = str(tmp_path / "shared.db")
    database = Database.connect(path, create=True)
    other = duckdb.connect(path)
    database.execute("CREATE TABLE t AS SELECT range AS x FROM range(1000)")
    database.close()
    assert other.execute("SELECT current_setting('max_vacuum_tasks')").fetchone() == (100,)
    assert other.execute("SELECT COUNT(*), SUM(x) FROM t").fetchone() == (1000, 499500)
    other.close()
    with Database.connect(path) as again:
        assert again.fetch_text("SELECT COUNT(*) FROM t") == [(1000,)]
