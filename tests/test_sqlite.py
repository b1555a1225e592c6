"""The same SQL, transpiled for SQLite, runs on Python's sqlite3 with DuckDB's results."""

from __future__ import annotations

import sqlite3

import numpy as np
import pandas as pd
import pytest
from conftest import random_corpus

import sqlnb
from sqlnb.inputs import Tokens


def same(x: float | None, y: float | None, tolerance: float) -> bool:
    """Equal within tolerance, NULL (-infinity or undefined) only where the other is NULL."""
    if x is None or y is None:
        return x is None and y is None
    return abs(x - y) <= tolerance


def load_sqlite(corpus, connection: sqlite3.Connection) -> None:
    for name in ("train_tokens", "train_labels", "test_tokens", "test_labels"):
        getattr(corpus, name).to_sql(name, connection, index=False)


@pytest.mark.parametrize(
    "seed,k,alpha,label_kind", [(21, 2, 1.0, "text"), (22, 6, 0.01, "int"), (23, 3, 0.0, "text")]
)
def test_sqlite_matches_duckdb(con, seed, k, alpha, label_kind):
    corpus = random_corpus(seed, n_classes=k, vocab=400, label_kind=label_kind)
    corpus.load(con)
    lite = sqlite3.connect(":memory:", isolation_level=None)
    load_sqlite(corpus, lite)
    expected = sqlnb.train(con, "train_tokens", "train_labels", alpha=alpha)
    got = sqlnb.train(lite, "train_tokens", "train_labels", alpha=alpha)
    assert got.db.dialect.name == "sqlite"

    def rows(model):
        query = model.prediction_query(Tokens("test_tokens"), proba=True)
        return sorted(model.db.fetch(query), key=lambda r: (r[0], str(r[1])))

    a, b = rows(expected), rows(got)
    assert [(r[0], r[1]) for r in a] == [(r[0], r[1]) for r in b]
    for x, y in zip(a, b):
        assert same(x[2], y[2], 1e-9) and same(x[3], y[3], 1e-12)
    label_a = sorted(expected.db.fetch(expected.prediction_query(Tokens("test_tokens"))))
    label_b = sorted(got.db.fetch(got.prediction_query(Tokens("test_tokens"))))
    assert [r[:2] for r in label_a] == [r[:2] for r in label_b]
    assert all(same(x[2], y[2], 1e-12) for x, y in zip(label_a, label_b))
    ev_a = expected.evaluate("test_tokens", "test_labels")
    ev_b = got.evaluate("test_tokens", "test_labels")
    assert ev_a["confusion"] == ev_b["confusion"]
    for key in ("accuracy", "macro_f1", "log_loss"):
        assert ev_a[key] == pytest.approx(ev_b[key], abs=1e-9)


def predictions(model) -> list:
    return sorted(
        model.db.fetch(
            model.prediction_query(
                (model.params.get("features") and sqlnb.Table("test")) or Tokens("test_tokens"),
                proba=True,
            )
        ),
        key=lambda r: (r[0], str(r[1])),
    )


def assert_same(a: list, b: list) -> None:
    assert [(r[0], r[1]) for r in a] == [(r[0], r[1]) for r in b]
    for x, y in zip(a, b):
        assert same(x[2], y[2], 1e-9) and same(x[3], y[3], 1e-12)


@pytest.mark.parametrize(
    "kind,options",
    [
        ("bernoulli", {"alpha": 0.5, "beta": 2.0}),
        ("complement", {"norm": True}),
        ("bernoulli", {"alpha": 0.0}),
    ],
)
def test_sqlite_text_kinds(con, kind, options):
    corpus = random_corpus(24, n_classes=4, vocab=300)
    corpus.load(con)
    lite = sqlite3.connect(":memory:", isolation_level=None)
    load_sqlite(corpus, lite)
    a = sqlnb.train(con, "train_tokens", "train_labels", kind=kind, **options)
    b = sqlnb.train(lite, "train_tokens", "train_labels", kind=kind, **options)
    assert_same(predictions(a), predictions(b))


@pytest.mark.parametrize("kind", ["gaussian", "categorical", "mixed"])
def test_sqlite_table_kinds(con, kind):
    rng = np.random.default_rng(25)
    n = 200
    y = rng.integers(0, 3, n)
    frame = pd.DataFrame(
        {
            "id": np.arange(n),
            "a": rng.normal(size=n) + y,
            "b": rng.normal(size=n) * (1 + y),
            "c": [f"v{v}" for v in (rng.integers(0, 3, n) + y) % 4],
            "label": [f"k{v}" for v in y],
        }
    )
    if kind == "gaussian":
        frame = frame.drop(columns="c")
    if kind == "categorical":
        frame = frame.drop(columns=["a", "b"])
    frame.loc[::17, frame.columns[1]] = None  # missing values
    con.register("frame", frame)
    con.execute("CREATE TABLE t AS SELECT * FROM frame")
    con.execute("CREATE TABLE test AS SELECT * FROM frame")
    lite = sqlite3.connect(":memory:", isolation_level=None)
    frame.to_sql("t", lite, index=False)
    frame.to_sql("test", lite, index=False)
    a = sqlnb.train(con, sqlnb.Table("t"), kind=kind)
    b = sqlnb.train(lite, sqlnb.Table("t"), kind=kind)
    assert a.params["features"] == b.params["features"]
    assert_same(predictions(a), predictions(b))


def test_sqlite_tokenizes_each_text_once_when_predicting_from_raw_text(monkeypatch):
    """SQLite's tokenizer is a Python function: a prediction, evaluation or explanation from raw
    text runs it once per text (into a temporary table), not wherever the tokens are read (1,000
    reviews once took 269 s to predict)."""
    from sqlnb import patterns

    calls = []

    class Counting:
        def __init__(self, pattern):
            self.compiled = real(pattern)

        def finditer(self, text):
            calls.append(text)
            return self.compiled.finditer(text)

    real = patterns.compiled
    monkeypatch.setattr(patterns, "compiled", Counting)
    lite = sqlite3.connect(":memory:", isolation_level=None)
    words = ["good", "bad", "tasty", "stale", "fine", "awful", "great"]
    texts = [" ".join(words[(i * j) % 7] for j in range(1, 9)) for i in range(60)]
    pd.DataFrame(
        {"doc_id": range(60), "text": texts, "label": [f"c{i % 2}" for i in range(60)]}
    ).to_sql("docs", lite, index=False)
    model = sqlnb.train(lite, sqlnb.Docs("docs"))
    for run in (
        lambda: model.predict(sqlnb.Docs("docs")),
        lambda: model.evaluate(sqlnb.Docs("docs")),
        lambda: model.explain(sqlnb.Docs("docs")),
    ):
        calls.clear()
        run()
        assert len(calls) == 60
