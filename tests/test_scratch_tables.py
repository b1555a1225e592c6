"""Issue 34, point 6: no command drops or overwrites a table it did not create. A user's table
named as any scratch table sqlnb used to make (``sqlnb_classify_staging``, ``sqlnb_outcomes``,
the tables EM, tune, calibrate, report and ``--priors estimate`` score into, the relations files
are read through, a table kept while rewriting another) or as one of this process's scratch
names survives every command, unchanged; the scratch names are random per process."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import random_corpus
from engines import open_engine
from sqlglot import exp

import sqlnb
from sqlnb import features, files
from sqlnb.engine import scratch
from sqlnb.report import report_numbers

OLD = [  # the fixed names of earlier versions
    "sqlnb_classify_staging",
    "sqlnb_outcomes",
    "sqlnb_scored",
    "sqlnb_calibrating",
    "sqlnb_report_scores",
    *(f"sqlnb_em_{n}" for n in ("tokens", "unlabeled", "documents", "labeled", "weights")),
    "sqlnb_em_posterior",
    *(f"sqlnb_tune_{n}" for n in ("labels", "tokens", "scored", "train", "test")),
    "sqlnb_rows",
    "sqlnb_import_0",
    "sqlnb_input_tokens",
    *(f"{t}__sqlnb_keep" for t in ("sqlnb_models", "sqlnb_classes", "sqlnb_word_counts")),
]
# ... and this process's own names, which a user cannot know but could have by chance
NAMES = OLD + [scratch.name(n) for n in OLD if not n.endswith(("_staging", "_keep"))]


@pytest.fixture(
    params=[
        "duckdb",
        pytest.param("clickhouse", marks=pytest.mark.clickhouse),
        pytest.param("sqlite", marks=pytest.mark.sqlite),
    ]
)
def engine(request):
    yield from open_engine(request.param)


def _rows(db: sqlnb.Database, name: str) -> list[tuple]:
    return sorted(db.fetch(exp.select("*").from_(exp.to_table(name, quoted=True))))


def test_a_users_tables_of_scratch_names_survive_every_command(engine, tmp_path):
    import pandas as pd

    corpus = random_corpus(6, n_classes=2, vocab=40, n_train=40, n_test=12)
    engine.load("tokens", corpus.train_tokens)
    engine.load("labels", corpus.train_labels)
    engine.load("test_tokens", corpus.test_tokens)
    engine.load("test_labels", corpus.test_labels)
    mine = pd.DataFrame({"doc_id": [1, 2], "note": ["mine", "keep me"]})
    for name in NAMES:
        engine.load(name, mine)
    docs = pd.DataFrame({"doc_id": sorted(set(corpus.test_tokens["doc_id"]))})
    engine.load("docs", docs)
    db = engine.db
    model = sqlnb.train(db, "tokens", "labels", model="m")
    model.evaluate("test_tokens", "test_labels")
    model.new_priors("estimate", "test_tokens")
    report_numbers(model, "test_tokens", "test_labels")
    if engine.name == "duckdb":  # tune needs DuckDB
        sqlnb.tune(db, "tokens", "labels", alphas=(0.5, 1.0), folds=2)
    model.calibrate("test_tokens", "test_labels", "sigmoid")
    model.classify("docs", "doc_id", "test_tokens", "label", proba_into="p")
    query, _ = features.word_scores(db, sqlnb.Tokens("tokens"), "labels")
    features.write(db, features.ranked(db, query, "chi2", 2), "scores", replace=False)
    files.export_model(db, "m", tmp_path / "m")
    files.import_model(db, tmp_path / "m", "again")
    half = corpus.train_labels.iloc[: len(corpus.train_labels) // 2]
    engine.load("few", half)
    sqlnb.train(db, "tokens", "few", model="em", unlabeled="test_tokens", em=(1.0, 2, 0.0))
    sqlnb.drop(db, "again")
    assert sorted(r[0] for r in db.fetch(exp.select("label").from_("docs")))  # classified
    for name in NAMES:
        assert _rows(db, name) == [(1, "mine"), (2, "keep me")], name


@pytest.mark.process
def test_the_scratch_names_differ_between_processes():
    """Two processes, since what differs is the name each process draws."""
    code = "from sqlnb.engine import scratch; print(scratch.name('sqlnb_outcomes'))"
    names = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip()
        for _ in range(2)
    }
    assert len(names) == 2 and all(n.startswith("sqlnb_outcomes_") for n in names)
