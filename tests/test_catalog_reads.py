"""Issue 38: ``predict`` to a table reads the model's catalog row once, the load's. Where the
engine fails a query from inside (DuckDB's ``error``, Spark's ``raise_error``), the prediction's
query checks in what it reads that the model is the one loaded (``sql/predict/current.sql``):
the reads before it and after it went."""

from __future__ import annotations

import json

import duckdb
import pytest
from cli import ENV, run
from test_training_statements import LABELS, TOKENS, _database

import sqlnb
from sqlnb.errors import SqlnbError


def _catalog_reads(profile) -> tuple[int, int]:
    """The catalog reads of a profile, and its other reads of sqlnb's tables or the output."""
    lines = [" ".join(json.loads(x)["sql"].split()) for x in profile.read_text().splitlines()]
    profile.unlink()
    other = [s for s in lines if s.startswith(("SELECT MIN(", 'SELECT COUNT(*) FROM "out"'))]
    return sum(s.startswith("SELECT m.model AS model") for s in lines), len(other)


def test_predict_to_a_table_reads_the_catalog_once(tmp_path):
    path = tmp_path / "m.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE tokens (doc_id INTEGER, word TEXT, count INTEGER)")
        con.execute("CREATE TABLE labels (doc_id INTEGER, label TEXT)")
        con.executemany("INSERT INTO tokens VALUES (?, ?, ?)", TOKENS)
        con.executemany("INSERT INTO labels VALUES (?, ?)", LABELS)
    run("train", path, "--tokens", "tokens", "--labels", "labels", ok=True)
    profile = tmp_path / "profile.jsonl"
    env = {**ENV, "SQLNB_PROFILE": str(profile)}
    found = run("predict", path, "--tokens", "tokens", "--output", "out", env=env, ok=True)
    assert f"wrote {len(LABELS)} rows" in found.stdout
    # 3 before; no calibration probe (a column of that read) nor count of the table written
    # (DuckDB's CREATE TABLE AS gives it): 1 and 1 before
    assert _catalog_reads(profile) == (1, 0)


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
def test_a_model_recalibrated_after_its_load_is_refused(engine):
    """The load reads the calibration's method with the catalog row, and the prediction
    applies it: a recalibration since (another method, or none) is refused as a retraining
    is, by the query's check where the engine fails one (DuckDB), else by the read after it
    (SQLite), never scored with one method's map over another's rows."""
    db = _database(engine)
    sqlnb.train(db, "tokens", "labels", model="m")
    sqlnb.load(db, "m").calibrate("tokens", "labels", method="sigmoid")
    loaded = sqlnb.load(db, "m")
    assert loaded.info["calibration"] == "sigmoid"
    sqlnb.load(db, "m").calibrate("tokens", "labels", method="isotonic")
    for act in (
        lambda: loaded.predict_to("tokens", "out", replace=True),
        lambda: loaded.evaluate("tokens", "labels"),
    ):
        with pytest.raises(SqlnbError, match="retrained or dropped after it was loaded"):
            act()
    again = sqlnb.load(db, "m")  # loaded again: the new method, and it predicts
    assert again.info["calibration"] == "isotonic"
    assert again.predict_to("tokens", "out", replace=True) == len(LABELS)
