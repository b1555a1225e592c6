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
from sqlnb import features
from sqlnb.kinds.wide import BY_WORD

OTHERS = [
    pytest.param(n, marks=getattr(pytest.mark, n)) for n in ("sqlite", "postgres", "clickhouse")
]


def _corpus(
    con: duckdb.DuckDBPyConnection, n_classes: int, docs: int = 2, tests: int | None = None
) -> None:
    """``docs`` documents per class over a vocabulary of 130 words, deterministic: a class is
    told by its pair of words (k % 50, 50 + k // 50), each document adds two of 30 common
    words; one test document per class (or for ``tests`` classes spread over all of them); a
    cost table of every pair (0 on the diagonal)."""
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
    step = 1 if tests is None else max(1, n_classes // tests)
    for k in range(0, n_classes, step):
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


def _traced(n_classes: int, run, tests: int | None = None) -> list[str]:
    con = duckdb.connect()
    _corpus(con, n_classes, tests=tests)
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

    # 2,000 classes, 100 test documents: the queries are what is compared, not their rows (up
    # to wide.BY_WORD classes the weights are derived from a column per class: see
    # test_weights_by_word.py)
    few, many = _traced(BY_WORD + 1, run), _traced(2000, run, tests=100)
    assert _shape(few) == _shape(many)
    assert max(len(t) for t in many) < 20_000


def test_costs_are_joined_not_listed():
    """--costs at 25 and 300 classes (90,000 pairs) runs the same statements."""

    def run(db):
        model = sqlnb.train(db, "tokens", "labels", model="m")
        options = model.decision_options(costs="costs")
        db.fetch(model.prediction_query("test_tokens", **options))

    few = _traced(BY_WORD + 1, run)
    many = _traced(300, run)
    assert _shape(few) == _shape(many)


@pytest.mark.slow  # 4M log-probabilities, 13 s of CPU each (issue 36): CI's serial part
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
    # 4M log-probabilities: read as arrays and placed by (document, class), not as tuples
    rows = model.predict_log_proba("test_tokens").fetchnumpy()
    expected = reference.predict_log_proba(x_test)
    classes = list(reference.classes_)
    labels = rows["label"].astype(str)
    row, column = np.searchsorted(test_docs, rows["doc_id"]), np.searchsorted(classes, labels)
    assert np.array_equal(np.asarray(test_docs)[row], rows["doc_id"])
    assert np.array_equal(np.asarray(classes)[column], labels)
    got = np.full(expected.shape, np.nan)
    got[row, column] = rows["log_proba"]
    assert len(rows["doc_id"]) == len(test_docs) * 2000 and not np.isnan(got).any()  # each once
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)
    top, second = np.sort(expected, axis=1)[:, -1], np.sort(expected, axis=1)[:, -2]
    decided = 0
    for i, d in enumerate(test_docs):
        if top[i] - second[i] > 1e-9:  # not a tie up to the engine's order of additions
            assert predicted[d] == classes[int(np.argmax(expected[i]))]
            decided += 1
    assert decided >= len(test_docs) // 2
    con.close()


@pytest.mark.parametrize("score", ["chi2", "mutual-info"])
def test_features_of_many_classes_equal_scikit_learn(score):
    """features at 1,200 classes (DuckDB refused the one expression of 1,200 classes' terms:
    its expression depth limit) equals scikit-learn's chi2 and mutual information, and its
    query is the same for 100 classes as for 1,200."""
    from sklearn.feature_selection import chi2, mutual_info_classif

    shapes = []
    for n_classes in (100, 1200):
        con = duckdb.connect()
        _corpus(con, n_classes)
        db = sqlnb.connect(con)
        query, _ = features.word_scores(db, sqlnb.Tokens("tokens"), "labels", score=score)
        shapes.append(_shape([db.sql(query)]))
        got = dict(db.fetch(query))
        words = sorted(got)
        column = {w: j for j, w in enumerate(words)}
        rows = con.execute("SELECT doc_id, word, count FROM tokens").fetchall()
        label = dict(con.execute("SELECT doc_id, label FROM labels").fetchall())
        docs = sorted(label)
        index = {d: i for i, d in enumerate(docs)}
        x = np.zeros((len(docs), len(words)))
        for d, w, n in rows:
            x[index[d], column[w]] += n
        y = [label[d] for d in docs]
        if score == "chi2":
            expected = chi2(x, y)[0]
        else:
            expected = mutual_info_classif(x > 0, y, discrete_features=True)
        np.testing.assert_allclose([got[w] for w in words], expected, rtol=1e-12, atol=1e-12)
        con.close()
    assert shapes[0] == shapes[1]


@pytest.mark.parametrize("name", OTHERS)
@pytest.mark.parametrize("score", ["chi2", "mutual-info"])
def test_the_long_form_of_features_runs_on_every_engine(name, score, monkeypatch):
    """The form of features past features.WIDE classes (here forced at 3) gives the other
    engines DuckDB's scores (and DuckDB's wide form's)."""
    from conftest import random_corpus
    from engines import open_engine

    corpus = random_corpus(34, n_classes=3, vocab=60, n_train=50, n_test=10)
    found = []
    for engine, wide in (("duckdb", 64), ("duckdb", 1), (name, 1)):
        monkeypatch.setattr(features, "WIDE", wide)
        for e in open_engine(engine):
            e.load("tokens", corpus.train_tokens)
            e.load("labels", corpus.train_labels)
            query, _ = features.word_scores(e.db, sqlnb.Tokens("tokens"), "labels", score=score)
            found.append({str(w): float(v) for w, v in e.db.fetch(query)})
    assert found[0].keys() == found[1].keys() == found[2].keys()
    for other in found[1:]:
        assert max(abs(other[w] - found[0][w]) for w in found[0]) < 1e-12


@pytest.mark.parametrize("name", ["duckdb", pytest.param("sqlite", marks=pytest.mark.sqlite)])
def test_a_stop_word_table_is_joined_not_listed(name):
    """A 20,000-word stop table is read by a join (training) and from sqlnb_stop_words (every
    query after it), never pasted into the SQL as literals; the model equals scikit-learn's
    CountVectorizer(stop_words=...) + MultinomialNB."""
    from engines import open_engine
    from sklearn.feature_extraction.text import CountVectorizer

    from sqlnb import training
    from sqlnb.tokenizer import Tokenizer, stop_word_list

    texts = [" ".join(f"w{(d * 7919 + j * 104729) % 21000}" for j in range(12)) for d in range(300)]
    docs = pd.DataFrame({"doc_id": range(300), "text": texts})
    labels = pd.DataFrame({"doc_id": range(300), "label": [f"c{d % 4}" for d in range(300)]})
    stop = pd.DataFrame({"word": [f"w{i}" for i in range(20_000)] + [None]})
    for e in open_engine(name):
        e.load("docs", docs)
        e.load("labels", labels)
        e.load("stop", stop)
        words = stop_word_list(e.db, "stop")
        assert len(words) == 20_000
        tokenizer = Tokenizer(stop_words=words, stop_table="stop")
        plan = training.train(e.db, sqlnb.Docs("docs"), "labels", model="m", tokenizer=tokenizer)
        script = plan.script(name)
        assert "'w12345'" not in script and "'w0'" not in script
        texts_run: list[str] = []
        e.db.tracer = texts_run.append
        plan.apply()
        model = sqlnb.load(e.db, "m")
        rows = e.db.fetch(model.prediction_query(sqlnb.Docs("docs")))
        assert not any("'w12345'" in t for t in texts_run)
        assert any("sqlnb_stop_words" in t for t in texts_run)  # the prediction's tokenizer
        vectorizer = CountVectorizer(stop_words=list(words))
        x = vectorizer.fit_transform(texts)
        reference = MultinomialNB().fit(x, labels["label"])
        expected = dict(zip(range(300), reference.predict(x)))
        assert {int(d): c for d, c, _ in rows} == expected
