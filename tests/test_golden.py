"""Golden files of the generated SQL for every dialect; each parses back.

Regenerate after an intended change: SQLNB_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pytest
import sqlglot

import sqlnb
from sqlnb import engine, training
from sqlnb.engine import scratch

GOLDEN = Path(__file__).parent / "golden"
DIALECTS = list(engine.DIALECTS)


@pytest.fixture(scope="module")
def scripts() -> dict[tuple[str, str], str]:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE tokens AS SELECT * FROM (VALUES (1, 'a', 2), (2, 'b', 1)) "
        "AS t(doc_id, word, count)"
    )
    con.execute(
        "CREATE TABLE labels AS SELECT * FROM (VALUES (1, 'x'), (2, 'y')) AS t(doc_id, label)"
    )
    con.execute(
        "CREATE TABLE patients AS SELECT * FROM (VALUES (1, 36.6, 'no', 'ok'), "
        "(2, 39.1, 'yes', 'ill')) AS t(id, temperature, cough, label)"
    )
    db = sqlnb.connect(con)
    text = sqlnb.train(db, "tokens", "labels", model="spam", kind="bernoulli")
    table = sqlnb.train(db, sqlnb.Table("patients"), model="triage")
    out: dict[tuple[str, str], str] = {}
    for d in DIALECTS:
        # a script for another database creates every table (as --print-sql does)
        plan = training.train(db, "tokens", "labels", model="spam", kind="bernoulli", dialect=d)
        out[d, "train_bernoulli"] = plan.script(d)
        out[d, "predict_bernoulli"] = engine.script(
            text.prediction_statements("tokens", "predictions", replace=True, guard=False), d
        )
        create, queries, drop = text.evaluation_statements("tokens", "labels", guard=False)
        out[d, "evaluate_bernoulli"] = engine.script([drop, create, *queries, drop], d)
        out[d, "predict_mixed"] = engine.script(
            table.prediction_statements(
                sqlnb.Table("patients"), "triaged", proba=True, replace=True, guard=False
            ),
            d,
        )
    return out


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize(
    "name", ["train_bernoulli", "predict_bernoulli", "evaluate_bernoulli", "predict_mixed"]
)
def test_golden_sql(scripts, dialect, name):
    path = GOLDEN / dialect / f"{name}.sql"
    text = scripts[dialect, name]
    text = text.replace(sqlnb.__version__, "<version>").replace(scratch.TOKEN, "xxxxxxxx")
    if os.environ.get("SQLNB_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"missing golden file {path}: run with SQLNB_UPDATE_GOLDEN=1"
    assert text == path.read_text()
    parsed = sqlglot.parse(path.read_text(), read=engine.dialect(dialect).sqlglot)
    assert all(p is not None for p in parsed) and len(parsed) == text.count(";\n")
