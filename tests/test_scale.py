"""Many classes and long stop-word lists are data, not query size: the statements sqlnb runs are
the same (up to numbers) for 10 classes as for 2,000, and a 2,000-class model agrees with
scikit-learn (issue 34, point 9). No timings here: README's Performance section has them."""

from __future__ import annotations

import re

import duckdb
import numpy as np
import pandas as pd
import pytest
from sklearn.naive_bayes import BernoulliNB, ComplementNB, MultinomialNB

import sqlnb


def _corpus(con: duckdb.DuckDBPyConnection, n_classes: int, docs: int = 2) -> None:
    """``docs`` documents per class over a vocabulary of 130 words, deterministic: a class is
    told by its pair of words (k % 50, 50 + k // 50), each document adds two of 30 common
    words; one test document per class; a cost table of every pair (0 on the diagonal)."""
    rows, labels, test = [], [], []
    for d in range(n_classes * docs):
        k = d % n_classes
        labels.append((d, f"c{k:05d}"))
        for word, n in (
            (k % 50, 1 + d % 3),
            (50 + (k // 50) % 50, 2),
            (100 + (d * 7) % 30, 1),
            (100 + (d * 3 + 1) % 30, 1),
        ):
            rows.append((d, f"w{word}", n))
    for k in range(n_classes):
        for word, n in ((k % 50, 2), (50 + (k // 50) % 50, 1), (100 + (k * 7) % 30, 1)):
            test.append((10**6 + k, f"w{word}", n))
    con.register("t", pd.DataFrame(rows, columns=["doc_id", "word", "count"]))
    con.register("l", pd.DataFrame(labels, columns=["doc_id", "label"]))
    con.register("x", pd.DataFrame(test, columns=["doc_id", "word", "count"]))
    for name in ("tokens", "labels", "test_tokens"):
        con.execute(f"DROP TABLE IF EXISTS {name}")
    con.execute("CREATE TABLE tokens AS SELECT * FROM t")
    con.execute("CREATE TABLE labels AS SELECT * FROM l")
    con.execute("CREATE TABLE test_tokens AS SELECT * FROM x")
    con.execute(
        "CREATE OR REPLACE TABLE costs AS SELECT a.label AS actual, p.label AS predicted, "
        "CAST(CASE WHEN a.label = p.label THEN 0 ELSE 1 + (a.doc_id + p.doc_id) % 3 END AS DOUBLE)"
        " AS cost FROM (SELECT DISTINCT label, MIN(doc_id) AS doc_id FROM labels GROUP BY label)"
        " AS a, (SELECT DISTINCT label, MIN(doc_id) AS doc_id FROM labels GROUP BY label) AS p"
    )


def _shape(texts: list[str]) -> list[str]:
    """The statements with every number as N: what is left is the query, not the data."""
    return [re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "N", t) for t in texts]


def _traced(n_classes: int, run) -> list[str]:
    con = duckdb.connect()
    _corpus(con, n_classes)
    db = sqlnb.connect(con)
    texts: list[str] = []
    db.tracer = texts.append
    run(db)
    con.close()
    return texts


@pytest.mark.parametrize("kind", ["multinomial", "bernoulli", "complement"])
def test_training_and_prediction_statements_do_not_grow_with_the_classes(kind):
    def run(db):
        model = sqlnb.train(db, "tokens", "labels", model="m", kind=kind, alpha=0.5)
        model.predict("test_tokens").fetchall()
        model.predict_proba("test_tokens").fetchall()

    few, many = _traced(10, run), _traced(2000, run)
    assert _shape(few) == _shape(many)
    assert max(len(t) for t in many) < 20_000


def test_costs_are_joined_not_listed():
    """--costs at 10 and 300 classes (90,000 pairs) runs the same statements."""

    def run(db):
        model = sqlnb.train(db, "tokens", "labels", model="m")
        options = model.decision_options(costs="costs")
        db.fetch(model.prediction_query("test_tokens", **options))

    few = _traced(10, run)
    many = _traced(300, run)
    assert _shape(few) == _shape(many)


@pytest.mark.parametrize(
    "kind,reference",
    [
        ("multinomial", MultinomialNB(alpha=0.5)),
        ("bernoulli", BernoulliNB(alpha=0.5)),
        ("complement", ComplementNB(alpha=0.5)),
    ],
)
def test_two_thousand_classes_agree_with_scikit_learn(kind, reference):
    con = duckdb.connect()
    _corpus(con, 2000)
    model = sqlnb.train(con, "tokens", "labels", model="m", kind=kind, alpha=0.5)
    words = sorted({w for (w,) in con.execute("SELECT DISTINCT word FROM tokens").fetchall()})
    column = {w: j for j, w in enumerate(words)}

    def matrix(table: str) -> tuple[list[int], np.ndarray]:
        rows = con.execute(f"SELECT doc_id, word, count FROM {table}").fetchall()
        docs = sorted({d for d, _, _ in rows})
        index = {d: i for i, d in enumerate(docs)}
        x = np.zeros((len(docs), len(words)))
        for d, w, n in rows:
            if w in column:
                x[index[d], column[w]] += n
        return docs, x

    docs, x = matrix("tokens")
    label = dict(con.execute("SELECT doc_id, label FROM labels").fetchall())
    reference.fit(x, [label[d] for d in docs])
    test_docs, x_test = matrix("test_tokens")
    predicted = dict((d, c) for d, c, _ in model.predict("test_tokens").fetchall())
    assert [predicted[d] for d in test_docs] == list(reference.predict(x_test))
    got = {(d, c): p for d, c, p in model.predict_log_proba("test_tokens").fetchall()}
    expected = reference.predict_log_proba(x_test)
    classes = list(reference.classes_)
    assert len(got) == len(test_docs) * 2000
    for i, d in enumerate(test_docs):
        np.testing.assert_allclose([got[d, c] for c in classes], expected[i], rtol=0, atol=1e-9)
    con.close()
