"""Weighted Gaussian models keep their digits on every engine: scikit-learn's GaussianNB with
sample weights within 1e-9 (relative to the magnitude), on data with large offsets and small
spreads, and integer weights against the same rows repeated.

scikit-learn's variance smoothing ε = var_smoothing · max np.var(X, axis=0) counts each given row
once, so a row repeated three times widens ε where a weight of 3 does not: integer weights equal
repeated rows exactly in the class statistics and, with var_smoothing 0, in the model; with
ε > 0 the two differ exactly as scikit-learn's own two fits do (7.4e-8 on its array-API case).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from sklearn.naive_bayes import GaussianNB

import sqlnb

ENGINES = [
    pytest.param(name, marks=getattr(pytest.mark, name))
    for name in ("sqlite", "postgres", "spark", "clickhouse")
]
# scikit-learn's array-API test of GaussianNB (test_gnb_array_api_compliance)
SK_X = np.array([[-2, -1], [-1, -1], [-1, -2], [1, 1], [1, 2], [2, 1]], dtype=float)
SK_Y = np.array(["a", "a", "a", "b", "b", "b"])
SK_W = np.array([1, 2, 3, 1, 2, 3], dtype=float)


def frame_of(x: np.ndarray, y: np.ndarray, w: np.ndarray | None = None) -> pd.DataFrame:
    frame = pd.DataFrame({"id": np.arange(len(y)), "a": x[:, 0], "b": x[:, 1], "label": y})
    return frame if w is None else frame.assign(w=w)


def log_probas(model: sqlnb.Model) -> dict:
    """(id, label) -> log-probability of every row of table t (NULL as -inf)."""
    rows = model.db.fetch(model.prediction_query(sqlnb.Table("t"), proba=True))
    return {(d, label): -math.inf if lp is None else lp for d, label, lp, _ in rows}


def assert_like(got: dict, reference: GaussianNB, x: np.ndarray, tolerance: float) -> None:
    expected = reference.predict_log_proba(x)
    worst = max(
        abs(got[i, c] - expected[i, j]) / max(1.0, abs(expected[i, j]))
        for i in range(len(x))
        for j, c in enumerate(reference.classes_)
    )
    assert worst <= tolerance


def offset_data(offset: float, spread: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(int(math.log10(offset) * 10 - math.log10(spread)))
    y = rng.integers(0, 3, 300)
    x = offset + (rng.normal(size=(300, 2)) + y[:, None]) * spread
    return x, np.array([f"k{v}" for v in y]), rng.integers(1, 5, 300).astype(float)


def exact(x: np.ndarray, y: np.ndarray, w: np.ndarray, smoothing: float = 1e-9) -> GaussianNB:
    """scikit-learn's weighted GaussianNB with its means and variances computed exactly (in
    fractions) and rounded once: its own np.average adds 1e6-sized values in order, and at a
    spread of 0.01 that rounding moves log-probabilities by 1e-7."""
    model = GaussianNB(var_smoothing=smoothing).fit(x, y, sample_weight=w)
    for k, label in enumerate(model.classes_):
        rows = [
            ([Fraction(float(a)) for a in v], Fraction(float(c)))
            for v, c in zip(x[y == label], w[y == label])
        ]
        for j in range(x.shape[1]):
            n = sum(c for _, c in rows)
            mean = sum(c * v[j] for v, c in rows) / n
            m2 = sum(c * (v[j] - mean) ** 2 for v, c in rows)
            model.theta_[k, j] = float(mean)
            model.var_[k, j] = float(m2 / n) + model.epsilon_
    return model


def train(db: sqlnb.Database, weight: str | None, **options) -> sqlnb.Model:
    data = sqlnb.Table("t", features=("a", "b"), weight=weight)
    return sqlnb.train(db, data, kind="gaussian", model="g", **options)


@pytest.mark.parametrize("smoothing", [1e-9, 1e-3])
@pytest.mark.parametrize("offset,spread", [(1.0, 1.0), (1e6, 1.0), (1e6, 1e-2), (1e8, 1.0)])
def test_weighted_equals_scikit_learn_with_large_offsets(con, offset, spread, smoothing):
    x, y, w = offset_data(offset, spread)
    con.register("frame", frame_of(x, y, w))
    con.execute("CREATE TABLE t AS SELECT * FROM frame")
    model = train(sqlnb.connect(con), "w", var_smoothing=smoothing)
    assert_like(log_probas(model), exact(x, y, w, smoothing), x, 1e-9)
    if offset == 1.0:  # without an offset, scikit-learn's own fit is as exact
        reference = GaussianNB(var_smoothing=smoothing).fit(x, y, sample_weight=w)
        assert_like(log_probas(model), reference, x, 1e-9)


@pytest.fixture(params=ENGINES)
def engine(request):
    """Each engine other than DuckDB, in a fresh namespace, marked with its name."""
    from engines import open_engine

    yield from open_engine(request.param)


def test_weighted_large_offsets_on_every_engine(engine):
    x, y, w = offset_data(1e6, 1e-2)
    engine.load("t", frame_of(x, y, w))
    assert_like(log_probas(train(engine.db, "w")), exact(x, y, w), x, 1e-9)


def test_scikit_learns_weighted_case_and_repeated_rows(con):
    con.register("weighted", frame_of(SK_X, SK_Y, SK_W))
    repeated = frame_of(
        np.repeat(SK_X, SK_W.astype(int), axis=0), np.repeat(SK_Y, SK_W.astype(int))
    )
    con.register("repeated", repeated)
    db = sqlnb.connect(con)
    con.execute("CREATE TABLE t AS SELECT * FROM weighted")
    weighted = {s: log_probas(train(db, "w", var_smoothing=s)) for s in (1e-9, 0.0)}
    con.execute("DROP TABLE t")
    con.execute("CREATE TABLE t AS SELECT * FROM repeated")
    again = {s: log_probas(train(db, None, var_smoothing=s)) for s in (1e-9, 0.0)}
    # each equals scikit-learn fitted the same way, to 1e-9 of the magnitude
    assert_like(weighted[1e-9], GaussianNB().fit(SK_X, SK_Y, sample_weight=SK_W), SK_X, 1e-9)
    rows = repeated[["a", "b"]].to_numpy()
    assert_like(again[1e-9], GaussianNB().fit(rows, repeated["label"]), rows, 1e-9)
    # without smoothing, integer weights are the rows repeated
    first = dict(enumerate(np.repeat(np.arange(6), SK_W.astype(int))))
    for (i, label), lp in again[0.0].items():
        assert lp == pytest.approx(weighted[0.0][first[i], label], rel=1e-12, abs=1e-12)
    # with it, ε differs as scikit-learn's does (2e-9 and 2.24e-9): 7.4e-8 at most
    gap = max(abs(lp - weighted[1e-9][first[i], label]) for (i, label), lp in again[1e-9].items())
    assert 7.4e-8 < gap < 7.5e-8


def test_appending_batches_with_large_offsets(con):
    """Appended means are combined as deviations from the smallest part's mean; each batch's
    mean is one double (within half an ulp of 1e6, 5.8e-11), which at a spread of 0.01 moves
    log-probabilities by a few 1e-9 (summed as n * mean, 2.1e-8)."""
    x, y, w = offset_data(1e6, 1e-2)
    frame = frame_of(x, y, w)
    db = sqlnb.connect(con)
    for k, part in enumerate(np.array_split(np.arange(len(frame)), 3)):
        con.register("frame", frame.iloc[part])
        con.execute(f"CREATE TABLE p{k} AS SELECT * FROM frame")
        data = sqlnb.Table(f"p{k}", features=("a", "b"), weight="w")
        if k == 0:
            sqlnb.train(db, data, kind="gaussian", model="g")
        else:
            model = sqlnb.append(db, data, model="g")
    con.register("frame", frame)
    con.execute("CREATE TABLE t AS SELECT * FROM frame")
    assert_like(log_probas(model), exact(x, y, w), x, 5e-9)
