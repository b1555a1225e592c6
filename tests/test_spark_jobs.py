"""Issue 38: the Spark jobs of a command, from Spark's status tracker (a job group a command),
on tests/test_training_statements.py's corpus. ``evaluate`` reads its outcomes in four queries,
one of them three times: from a temporary view each read computed the whole prediction again
(105 jobs); from a local checkpoint the prediction runs once."""

from __future__ import annotations

import pandas as pd
import pytest
from engines import open_engine
from test_training_statements import LABELS, TOKENS

import sqlnb

# evaluate's jobs before (17a261b) and the most it may take now (58 measured)
EVALUATE_BEFORE, EVALUATE_AT_MOST = 105, 60


@pytest.fixture(scope="module")
def trained():
    """The corpus and a multinomial model "m" of it, in a fresh Spark database."""
    opened = open_engine("spark")
    engine = next(opened)
    engine.load("tokens", pd.DataFrame(TOKENS, columns=["doc_id", "word", "count"]))
    engine.load("labels", pd.DataFrame(LABELS, columns=["doc_id", "label"]))
    sqlnb.train(engine.db, "tokens", "labels", model="m")
    yield engine.db
    for _ in opened:  # the database dropped
        pass


def _jobs(db: sqlnb.Database, group: str, command) -> tuple[object, int]:
    """``command()``'s result and the Spark jobs it ran."""
    context = db.connection.sparkContext
    context.setJobGroup(group, group)
    try:
        result = command()
    finally:
        context.setJobGroup("sqlnb-tests", "")
    return result, len(context.statusTracker().getJobIdsForGroup(group))


@pytest.mark.spark
def test_evaluate_computes_its_outcomes_once(trained):
    model = sqlnb.load(trained, "m")
    found, jobs = _jobs(trained, "sqlnb-evaluate", lambda: model.evaluate("tokens", "labels"))
    assert jobs <= EVALUATE_AT_MOST < EVALUATE_BEFORE
    # the same measures as DuckDB's of the same model
    reference = next(open_engine("duckdb"))
    reference.load("tokens", pd.DataFrame(TOKENS, columns=["doc_id", "word", "count"]))
    reference.load("labels", pd.DataFrame(LABELS, columns=["doc_id", "label"]))
    sqlnb.train(reference.db, "tokens", "labels", model="m")
    expected = sqlnb.load(reference.db, "m").evaluate("tokens", "labels")
    assert found.keys() == expected.keys()
    assert found["n_docs"] == expected["n_docs"] == len(LABELS)
    for label, measures in expected["per_class"].items():
        assert found["per_class"][label] == pytest.approx(measures, rel=1e-9)
    for key in ("accuracy", "macro_f1", "log_loss", "brier", "ece"):
        assert found[key] == pytest.approx(expected[key], rel=1e-9, abs=1e-12)
    assert found["confusion"] == expected["confusion"]
    assert [b["n_docs"] for b in found["reliability"]] == [
        b["n_docs"] for b in expected["reliability"]
    ]
    # nothing left behind: the checkpoint's view is dropped
    views = [t.name for t in trained.connection.catalog.listTables() if t.isTemporary]
    assert not [v for v in views if v.startswith("sqlnb_outcomes")]
