"""Multinomial Naive Bayes: parity with scikit-learn and the textbook example."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import random_corpus
from sklearn.naive_bayes import MultinomialNB

import sqlnb


def proba_matrix(
    model: sqlnb.Model, docs: list, classes: list, table: str = "test_tokens"
) -> np.ndarray:
    rows = model.predict_log_proba(table).fetchall()
    col = {c: j for j, c in enumerate(classes)}
    row = {d: i for i, d in enumerate(docs)}
    out = np.full((len(docs), len(classes)), np.nan)
    for doc, label, lp in rows:
        out[row[doc], col[label]] = -math.inf if lp is None else lp
    return out


CASES = [
    # (seed, classes, vocab, alpha, fit_prior, class_prior, prior_alpha)
    (1, 2, 50, 1.0, True, None, 0.0),
    (2, 3, 300, 0.5, True, None, 0.0),
    (3, 5, 1000, 0.01, False, None, 0.0),
    (4, 20, 10_000, 1.0, True, None, 0.0),
    (5, 4, 2000, 0.5, True, "given", 0.0),
    (6, 7, 500, 0.01, True, None, 2.5),
    (7, 12, 3000, 1.0, False, None, 0.0),
]


@pytest.mark.parametrize("seed,k,vocab,alpha,fit_prior,class_prior,prior_alpha", CASES)
def test_parity_with_scikit_learn(con, seed, k, vocab, alpha, fit_prior, class_prior, prior_alpha):
    corpus = random_corpus(seed, n_classes=k, vocab=vocab, n_train=40 * k, n_test=60)
    corpus.load(con)
    labels = sorted(set(corpus.train_labels["label"]))
    given = None
    if class_prior == "given":
        raw = np.arange(1, len(labels) + 1, dtype=float)
        given = dict(zip(labels, raw / raw.sum()))
    model = sqlnb.train(
        con,
        "train_tokens",
        "train_labels",
        alpha=alpha,
        fit_prior=fit_prior,
        class_prior=given,
        prior_alpha=prior_alpha,
    )
    X, y, X_test, docs = corpus.matrices()
    reference = MultinomialNB(
        alpha=alpha,
        fit_prior=fit_prior,
        class_prior=None if given is None else list(given.values()),
    )
    reference.fit(X, y)
    if prior_alpha:
        counts = reference.class_count_
        reference.class_log_prior_ = np.log(counts + prior_alpha) - np.log(
            counts.sum() + len(counts) * prior_alpha
        )
    assert list(reference.classes_) == labels
    expected = reference.predict_log_proba(X_test)
    got = proba_matrix(model, docs, labels)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)
    predicted = dict((d, label) for d, label, _ in model.predict("test_tokens").fetchall())
    assert [predicted[d] for d in docs] == list(reference.predict(X_test))
    # Derived tables agree too.
    prior = dict(
        con.execute("SELECT label, log_prior FROM sqlnb_prior WHERE model = 'default'").fetchall()
    )
    np.testing.assert_allclose([prior[c] for c in labels], reference.class_log_prior_, atol=1e-12)


def test_manning_chinese_beijing_by_hand(con):
    """Manning, Raghavan & Schuetze, Introduction to IR, example 13.1."""
    con.execute("""CREATE TABLE docs AS SELECT * FROM (VALUES
        (1, 'Chinese Beijing Chinese', 'c'), (2, 'Chinese Chinese Shanghai', 'c'),
        (3, 'Chinese Macao', 'c'), (4, 'Tokyo Japan Chinese', 'j'),
        (5, 'Chinese Chinese Chinese Tokyo Japan', NULL)) AS t(doc_id, text, label)""")
    con.execute("""CREATE TABLE tokens AS SELECT doc_id, unnest(string_split(text, ' ')) AS word
                   FROM docs""")
    con.execute("CREATE TABLE labels AS SELECT doc_id, label FROM docs WHERE label IS NOT NULL")
    con.execute("CREATE TABLE test AS SELECT * FROM tokens WHERE doc_id = 5")
    model = sqlnb.train(con, "tokens", "labels")
    theta = dict(
        ((c, w), v)
        for c, w, v in con.execute(
            "SELECT label, word, exp(log_theta) FROM sqlnb_log_theta"
        ).fetchall()
    )
    assert theta["c", "Chinese"] == pytest.approx(6 / 14, abs=1e-15)
    assert theta["c", "Tokyo"] == pytest.approx(1 / 14, abs=1e-15)
    assert theta["j", "Chinese"] == pytest.approx(2 / 9, abs=1e-15)
    assert theta["j", "Tokyo"] == pytest.approx(2 / 9, abs=1e-15)
    score_c = 3 / 4 * (3 / 7) ** 3 * 1 / 14 * 1 / 14
    score_j = 1 / 4 * (2 / 9) ** 3 * 2 / 9 * 2 / 9
    assert round(score_c, 4) == 0.0003 and round(score_j, 4) == 0.0001  # as printed in the book
    [(doc, label, proba)] = model.predict("test").fetchall()
    assert (doc, label) == (5, "c")
    assert proba == pytest.approx(score_c / (score_c + score_j), abs=1e-12)


@pytest.mark.parametrize(
    "label_kind,sql_type", [("int", "BIGINT"), ("bool", "BOOLEAN"), ("text", "VARCHAR")]
)
def test_labels_come_back_in_their_type(con, label_kind, sql_type):
    corpus = random_corpus(11, n_classes=2, label_kind=label_kind)
    corpus.load(con)
    model = sqlnb.train(con, "train_tokens", "train_labels")
    model.predict_to("test_tokens", "out")
    assert con.execute("SELECT typeof(label) FROM out LIMIT 1").fetchone()[0] == sql_type
    X, y, X_test, docs = corpus.matrices()
    reference = MultinomialNB().fit(X, y)
    got = dict(con.execute("SELECT doc_id, label FROM out").fetchall())
    assert [got[d] for d in docs] == list(reference.predict(X_test))


def test_integer_labels_sort_as_numbers(con):
    """Class order (and the tie rule) follows the labels' type: 9 < 10, not '10' < '9'."""
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 'a'), (2, 'a')) AS v(doc_id, word)")
    con.execute("CREATE TABLE l AS SELECT * FROM (VALUES (1, 10), (2, 9)) AS v(doc_id, label)")
    model = sqlnb.train(con, "t", "l")
    assert [c["label"] for c in model.classes()] == ["9", "10"]
    # A tie: both classes score the same, so the first in sorted order (9) wins.
    [(_, label, proba)] = model.predict("t").filter("doc_id = 1").fetchall()
    assert (label, proba) == (9, 0.5)


def test_alpha_zero_is_maximum_likelihood(con):
    """alpha = 0: theta may be 0, so log theta is NULL (-infinity). A class with a zero-probability
    word gets posterior 0; a document that rules out every class has an undefined posterior
    (NULL) and, as scikit-learn's argmax over all -inf, the first class."""
    corpus = random_corpus(31, n_classes=3, vocab=300, n_train=30)
    corpus.load(con)
    model = sqlnb.train(con, "train_tokens", "train_labels", alpha=0.0)
    X, y, X_test, docs = corpus.matrices()
    with np.errstate(divide="ignore", invalid="ignore"):
        reference = MultinomialNB(alpha=0.0).fit(X, y)
        expected = reference.predict_log_proba(X_test)
        predicted = list(reference.predict(X_test))
    labels = list(reference.classes_)
    got = proba_matrix(model, docs, labels)
    undefined = np.isnan(expected).all(axis=1)
    assert undefined.any() and (~undefined).any()
    np.testing.assert_allclose(got[~undefined], expected[~undefined], atol=1e-9)
    assert np.isneginf(got[~undefined]).any()
    out = {d: (label, p) for d, label, p in model.predict("test_tokens").fetchall()}
    assert [out[d][0] for d in docs] == predicted
    for d, u in zip(docs, undefined):
        assert (out[d][1] is None) == u
    assert (
        con.execute("SELECT COUNT(*) FROM sqlnb_log_theta WHERE log_theta IS NULL").fetchone()[0]
        > 0
    )


def test_long_documents_stay_finite(con):
    """Scores whose differences underflow exp (log-odds near -75,000) still normalise."""
    con.execute(
        "CREATE TABLE t AS SELECT * FROM (VALUES (1, 'a', 1), (2, 'b', 1)) "
        "AS v(doc_id, word, count)"
    )
    con.execute("CREATE TABLE l AS SELECT * FROM (VALUES (1, 'x'), (2, 'y')) AS v(doc_id, label)")
    model = sqlnb.train(con, "t", "l", alpha=1e-10)
    con.execute(
        "CREATE TABLE d AS SELECT * FROM (VALUES (7, 'a', 3300), (8, 'zzz', 1))"
        " AS v(doc_id, word, count)"
    )
    rows = {
        (d, label): (lp, p)
        for d, label, lp, p in con.execute(
            "SELECT * FROM (" + model.db.sql(model.prediction_query("d", proba=True)) + ")"
        ).fetchall()
    }
    lp_y, p_y = rows[7, "y"]
    assert -80_000 < lp_y < -70_000 and p_y == 0.0
    assert rows[7, "x"] == (0.0, 1.0)
    assert rows[8, "x"][1] == pytest.approx(0.5) and rows[8, "y"][1] == pytest.approx(0.5)
    [(_, label, _)] = model.predict("d").filter("doc_id = 8").fetchall()
    assert label == "x"  # no known word: the prior, an exact tie, goes to the first class
