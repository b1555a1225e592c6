"""Issue 38: ``predict`` to a table reads the model's catalog row once, the load's. Where the
engine fails a query from inside (DuckDB's ``error``, Spark's ``raise_error``), the prediction's
query checks in what it reads that the model is the one loaded (``sql/predict/current.sql``):
the reads before it and after it went."""

from __future__ import annotations

import json

import duckdb
from cli import ENV, run
from test_training_statements import LABELS, TOKENS


def _catalog_reads(profile) -> int:
    lines = [json.loads(x) for x in profile.read_text().splitlines()]
    profile.unlink()
    return sum(" ".join(r["sql"].split()).startswith("SELECT m.model AS model") for r in lines)


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
    assert _catalog_reads(profile) == 1  # 3 before
