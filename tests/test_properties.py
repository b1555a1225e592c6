"""Properties of multinomial training and prediction over random small corpora (hypothesis):
parity with scikit-learn's MultinomialNB, posteriors that sum to 1, and invariance to the
order of the token rows and to splitting a count across duplicate rows."""

from __future__ import annotations

import random
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.naive_bayes import MultinomialNB

import sqlnb

SETTINGS = settings(
    max_examples=25, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
COUNT = st.one_of(st.integers(0, 5).map(float), st.sampled_from([0.25, 0.5, 1.5, 2.75]))


@st.composite
def corpora(draw: Any) -> dict[str, Any]:
    """Documents with labels (some without tokens), a vocabulary, and test documents with
    seen and unseen words; counts integer or fractional, some 0."""
    n_classes = draw(st.integers(2, 4))
    n_docs = draw(st.integers(n_classes, 14))
    vocab = [f"w{i}" for i in range(draw(st.integers(1, 9)))]
    labels = [f"c{i}" for i in range(n_classes)] + [
        f"c{draw(st.integers(0, n_classes - 1))}" for _ in range(n_docs - n_classes)
    ]
    tokens = []
    for d in range(n_docs):
        for w in draw(st.lists(st.sampled_from(vocab), max_size=5)):
            tokens.append((d, w, draw(COUNT)))
    if not any(c > 0 for _, _, c in tokens):
        tokens.append((0, vocab[0], 1.0))
    test = [
        (100 + d, w, draw(COUNT))
        for d in range(draw(st.integers(1, 5)))
        for w in draw(st.lists(st.sampled_from([*vocab, "unseen"]), min_size=1, max_size=5))
    ]
    return {
        "tokens": pd.DataFrame(tokens, columns=["doc_id", "word", "count"]),
        "labels": pd.DataFrame({"doc_id": range(n_docs), "label": labels}),
        "test": pd.DataFrame(test, columns=["doc_id", "word", "count"]),
        "alpha": draw(st.sampled_from([1.0, 0.5, 0.01])),
        "seed": draw(st.integers(0, 2**16)),
    }


def _database(c: dict[str, Any], tokens: pd.DataFrame | None = None) -> Any:
    con = duckdb.connect()
    for name, frame in (
        ("tokens", c["tokens"] if tokens is None else tokens),
        ("labels", c["labels"]),
        ("test", c["test"]),
    ):
        con.register("frame", frame)
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")
        con.unregister("frame")
    return con


def _predictions(
    c: dict[str, Any], tokens: pd.DataFrame | None = None
) -> tuple[dict[tuple, float], dict[Any, str]]:
    """sqlnb's log-probabilities of every (test document, class) (-inf where NULL) and its
    predicted labels; checks on the way that the posteriors sum to 1 per document."""
    con = _database(c, tokens)
    try:
        model = sqlnb.train(con, "tokens", "labels", model="p", alpha=c["alpha"])
        rows = model.predict_proba("test").fetchall()
        sums: dict[Any, float] = {}
        for d, _, p in rows:
            sums[d] = sums.get(d, 0.0) + p
        assert all(abs(s - 1) < 1e-12 for s in sums.values()), sums
        log = model.predict_log_proba("test").fetchall()
        labels = {d: label for d, label, _ in model.predict("test").fetchall()}
        return {(d, k): (-np.inf if lp is None else lp) for d, k, lp in log}, labels
    finally:
        con.close()


def _sklearn(c: dict[str, Any]) -> tuple[list, np.ndarray, np.ndarray]:
    vocab = sorted(set(c["tokens"].loc[c["tokens"]["count"] > 0, "word"]))
    column = {w: i for i, w in enumerate(vocab)}

    def matrix(frame: pd.DataFrame, docs: list) -> np.ndarray:
        m = np.zeros((len(docs), len(vocab)))
        row = {d: i for i, d in enumerate(docs)}
        for d, w, n in frame.itertuples(index=False):
            if w in column:
                m[row[d], column[w]] += n
        return m

    X = matrix(c["tokens"], list(c["labels"]["doc_id"]))
    nb = MultinomialNB(alpha=c["alpha"]).fit(X, c["labels"]["label"].to_numpy())
    docs = sorted(set(c["test"]["doc_id"]))
    return docs, nb.classes_, nb.predict_log_proba(matrix(c["test"], docs))


@pytest.mark.slow  # 25 hypothesis examples, about 20 s (issue 36)
@SETTINGS
@given(c=corpora())
def test_parity_with_scikit_learn(c: dict[str, Any]) -> None:
    got, labels = _predictions(c)
    docs, classes, expected = _sklearn(c)
    mine = np.array([[got[(d, k)] for k in classes] for d in docs])
    np.testing.assert_allclose(mine, expected, atol=1e-9, rtol=0)
    for d, row in zip(docs, expected):
        top = np.sort(row)[::-1]
        if len(top) < 2 or top[0] - top[1] > 1e-9:  # no (near) tie to break differently
            assert labels[d] == classes[int(np.argmax(row))]


def _models(c: dict[str, Any], variants: dict[str, pd.DataFrame]) -> dict[str, tuple]:
    """The corpus trained as it is and from each variant of its tokens, in one database:
    each model's log-probabilities (None: -infinity) and labels."""
    con = _database(c)
    try:
        for name, frame in variants.items():
            con.register("frame", frame)
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")
            con.unregister("frame")
        results = {}
        for source in ("tokens", *variants):  # one name, retrained: one model at a time
            model = sqlnb.train(con, source, "labels", model="p", alpha=c["alpha"])
            log = {(d, k): lp for d, k, lp in model.predict_log_proba("test").fetchall()}
            labels = {d: label for d, label, _ in model.predict("test").fetchall()}
            results[source] = (log, labels)
        return results
    finally:
        con.close()


def _assert_same(a: tuple, b: tuple, what: str) -> None:
    """The same log-probabilities within rounding, and the same labels unless two classes
    are within rounding of a tie."""
    (log_a, labels_a), (log_b, labels_b) = a, b
    assert log_a.keys() == log_b.keys(), what
    for key in log_a:
        if log_a[key] is None or log_b[key] is None:  # NULL: -infinity
            assert log_a[key] == log_b[key], (what, key)
        else:
            assert log_a[key] == pytest.approx(log_b[key], abs=1e-12), (what, key)
    for d in labels_a:
        if labels_a[d] != labels_b[d]:
            tie = pytest.approx(log_a[(d, labels_b[d])], abs=1e-12)
            assert log_a[(d, labels_a[d])] == tie, (what, d)


def _split(tokens: pd.DataFrame, seed: int) -> pd.DataFrame:
    """Some counts split across two rows of the same (document, word): 3 as 1 and 2."""
    rng = random.Random(seed)
    rows = []
    for d, w, n in tokens.itertuples(index=False):
        if n > 1 and rng.random() < 0.7:
            part = float(rng.randint(1, int(n) - 1)) if n == int(n) else n / 2
            rows += [(d, w, part), (d, w, n - part)]
        else:
            rows.append((d, w, n))
    return pd.DataFrame(rows, columns=["doc_id", "word", "count"])


@pytest.mark.slow  # 15 hypothesis examples, about 20 s (issue 36)
@settings(SETTINGS, max_examples=15)
@given(c=corpora())
def test_invariant_to_row_order_and_to_splitting_counts_across_rows(c: dict[str, Any]) -> None:
    shuffled = c["tokens"].sample(frac=1, random_state=c["seed"]).reset_index(drop=True)
    results = _models(c, {"shuffled": shuffled, "split": _split(c["tokens"], c["seed"])})
    _assert_same(results["tokens"], results["shuffled"], "shuffled rows")
    _assert_same(results["tokens"], results["split"], "counts split across rows")
