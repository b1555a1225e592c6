"""Bernoulli, complement, Gaussian, categorical and mixed Naive Bayes: scikit-learn parity and
the textbook's worked examples."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from conftest import random_corpus
from sklearn import datasets
from sklearn.naive_bayes import (
    BernoulliNB,
    CategoricalNB,
    ComplementNB,
    GaussianNB,
    MultinomialNB,
)

import sqlnb
from sqlnb.errors import SqlnbError


def log_proba(model: sqlnb.Model, data, docs: list, classes: list) -> np.ndarray:
    col = {c: j for j, c in enumerate(classes)}
    row = {d: i for i, d in enumerate(docs)}
    out = np.full((len(docs), len(classes)), np.nan)
    for doc, label, lp in model.predict_log_proba(data).fetchall():
        out[row[doc], col[label]] = -math.inf if lp is None else lp
    return out


def labels_of(model: sqlnb.Model, data, docs: list) -> list:
    got = {d: label for d, label, _ in model.predict(data).fetchall()}
    return [got[d] for d in docs]


def close(got: np.ndarray, expected: np.ndarray, jll: np.ndarray | None = None) -> None:
    """Within 1e-9; where a row's joint log-likelihoods are huge, within 1e-13 of their size.
    (digits: jll of about -1e9 from the epsilon-sized variances of constant pixels, where
    epsilon itself, pooled from class statistics here and computed from the rows by
    scikit-learn, agrees to 1e-15 relative: no double computation promises more.)"""
    tolerance = 1e-9
    if jll is not None:
        tolerance = 1e-9 + 1e-13 * np.abs(jll).max(axis=1, keepdims=True)
    assert got.shape == expected.shape
    both_inf = np.isneginf(got) & np.isneginf(expected)
    diff = np.where(both_inf, 0.0, np.abs(got - expected))
    assert (diff <= tolerance).all(), f"max difference {np.nanmax(diff - tolerance) + 1e-9:.3g}"


# --- text kinds ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "seed,k,vocab,alpha,fit_prior",
    [
        (41, 2, 100, 1.0, True),
        (42, 5, 2000, 0.5, True),
        (43, 12, 5000, 0.01, False),
    ],
)
def test_bernoulli_parity(con, seed, k, vocab, alpha, fit_prior):
    corpus = random_corpus(seed, n_classes=k, vocab=vocab, n_train=30 * k, n_test=50)
    corpus.load(con)
    model = sqlnb.train(
        con, "train_tokens", "train_labels", kind="bernoulli", alpha=alpha, fit_prior=fit_prior
    )
    X, y, X_test, docs = corpus.matrices()
    reference = BernoulliNB(alpha=alpha, fit_prior=fit_prior).fit(X, y)
    close(
        log_proba(model, "test_tokens", docs, list(reference.classes_)),
        reference.predict_log_proba(X_test),
    )
    assert labels_of(model, "test_tokens", docs) == list(reference.predict(X_test))


def test_bernoulli_beta_is_the_absence_pseudo_count(con):
    corpus = random_corpus(44, n_classes=3, vocab=300)
    corpus.load(con)
    model = sqlnb.train(con, "train_tokens", "train_labels", kind="bernoulli", alpha=0.5, beta=2.0)
    X, y, X_test, docs = corpus.matrices(binary=True)
    classes = sorted(set(y))
    n_k = np.array([(y == c).sum() for c in classes], dtype=float)
    n_kw = np.vstack([np.asarray(X[y == c].sum(axis=0)).ravel() for c in classes])
    theta = (n_kw + 0.5) / (n_k[:, None] + 2.5)
    jll = (
        X_test @ np.log(theta).T
        + (1 - X_test.toarray()) @ np.log(1 - theta).T
        + np.log(n_k / n_k.sum())
    )
    expected = jll - np.logaddexp.reduce(jll, axis=1, keepdims=True)
    close(log_proba(model, "test_tokens", docs, classes), expected)


@pytest.mark.parametrize("norm", [False, True])
@pytest.mark.parametrize("seed,k,alpha", [(51, 2, 1.0), (52, 6, 0.3), (53, 15, 0.01)])
def test_complement_parity(con, seed, k, alpha, norm):
    corpus = random_corpus(seed, n_classes=k, vocab=1500, n_train=30 * k, n_test=50)
    corpus.load(con)
    model = sqlnb.train(
        con, "train_tokens", "train_labels", kind="complement", alpha=alpha, norm=norm
    )
    X, y, X_test, docs = corpus.matrices()
    reference = ComplementNB(alpha=alpha, norm=norm).fit(X, y)
    close(
        log_proba(model, "test_tokens", docs, list(reference.classes_)),
        reference.predict_log_proba(X_test),
    )
    assert labels_of(model, "test_tokens", docs) == list(reference.predict(X_test))


@pytest.mark.parametrize("kind", ["multinomial", "bernoulli", "complement"])
def test_more_classes_than_one_block_of_the_wide_table(con, kind):
    """sqlnb_scoring holds a block of classes per row (8): 40 classes take five rows per word
    (Bernoulli ten: log(1 - theta) has rows of its own), and every class of every block still
    matches scikit-learn."""
    corpus = random_corpus(7, n_classes=40, vocab=300, n_train=800, n_test=60, doc_length=30)
    corpus.load(con)
    model = sqlnb.train(con, "train_tokens", "train_labels", kind=kind)
    X, y, X_test, docs = corpus.matrices()
    estimator = {"multinomial": MultinomialNB, "bernoulli": BernoulliNB, "complement": ComplementNB}
    reference = estimator[kind]().fit(X, y)
    assert len(reference.classes_) == 40
    blocks = con.execute("SELECT DISTINCT base FROM sqlnb_scoring ORDER BY base").fetchall()
    absent = [(-1 - b,) for b in (32, 24, 16, 8, 0)] if kind == "bernoulli" else []
    assert blocks == [*absent, (0,), (8,), (16,), (24,), (32,)]
    close(
        log_proba(model, "test_tokens", docs, list(reference.classes_)),
        reference.predict_log_proba(X_test),
    )
    assert labels_of(model, "test_tokens", docs) == list(reference.predict(X_test))


def test_complement_gives_a_uniform_posterior_without_known_words(con):
    corpus = random_corpus(54, n_classes=4)
    corpus.load(con)
    model = sqlnb.train(con, "train_tokens", "train_labels", kind="complement")
    rows = model.predict_proba("test_tokens").filter("doc_id >= 100040").fetchall()
    assert rows and all(p == pytest.approx(0.25, abs=1e-15) for _, _, p in rows)


def lecture_corpus(con) -> None:
    sentences = [
        ("it is a puppy", 1),
        ("it is a kitten", 1),
        ("it is a cat", 1),
        ("that is a dog and this is a pen", 1),
        ("it is a matrix", 0),
    ]
    vocabulary = ("it", "is", "puppy", "cat", "pen", "a", "this")
    rows = [
        (i, w) for i, (text, _) in enumerate(sentences) for w in text.split() if w in vocabulary
    ]
    con.execute("CREATE TABLE tokens (doc_id INTEGER, word VARCHAR)")
    con.executemany("INSERT INTO tokens VALUES (?, ?)", rows)
    con.execute("CREATE TABLE labels (doc_id INTEGER, label INTEGER)")
    con.executemany(
        "INSERT INTO labels VALUES (?, ?)", [(i, y) for i, (_, y) in enumerate(sentences)]
    )


def one_document(con, name: str, text: str) -> None:
    con.execute(f"CREATE TABLE {name} (doc_id INTEGER, word VARCHAR)")
    con.executemany(f"INSERT INTO {name} VALUES (1, ?)", [(w,) for w in text.split()])


def test_lecture_examples(con):
    lecture_corpus(con)
    one_document(con, "random_sentence", "it is a random sentence")
    one_document(con, "dog_sentence", "this dog was my puppy")
    unsmoothed = sqlnb.train(
        con, "tokens", "labels", model="ml", kind="bernoulli", alpha=0.0, beta=0.0
    )
    p = dict((label, p) for _, label, p in unsmoothed.predict_proba("random_sentence").fetchall())
    # P(y=1) = 0.8 (3/4)^5 / (0.8 (3/4)^5 + 0.2)
    assert p[1] == pytest.approx(0.8 * 0.75**5 / (0.8 * 0.75**5 + 0.2), abs=1e-12)
    assert round(p[1], 2) == 0.49
    smoothed = sqlnb.train(
        con, "tokens", "labels", model="map", kind="bernoulli", alpha=1.0, prior_alpha=1.0
    )
    p = dict((label, p) for _, label, p in smoothed.predict_proba("dog_sentence").fetchall())

    # Beta(1, 1) on every word, Dirichlet(1, 1) on the prior: by hand.
    def theta(n, total):
        return (n + 1) / (total + 2)

    present = {"this", "puppy"}
    counts1 = {"it": 3, "is": 4, "puppy": 1, "cat": 1, "pen": 1, "a": 4, "this": 1}
    counts0 = {"it": 1, "is": 1, "puppy": 0, "cat": 0, "pen": 0, "a": 1, "this": 0}

    def score(counts, n, prior):
        s = prior
        for w, c in counts.items():
            s *= theta(c, n) if w in present else 1 - theta(c, n)
        return s

    s1, s0 = score(counts1, 4, 5 / 7), score(counts0, 1, 2 / 7)
    assert p[0] == pytest.approx(s0 / (s0 + s1), abs=1e-12)
    assert round(p[0], 2) == 0.62


def test_manning_bernoulli_example(con):
    """Manning, Raghavan & Schuetze, example 13.2: the Bernoulli model picks Japan."""
    docs = [
        "Chinese Beijing Chinese",
        "Chinese Chinese Shanghai",
        "Chinese Macao",
        "Tokyo Japan Chinese",
    ]
    con.execute("CREATE TABLE tokens (doc_id INTEGER, word VARCHAR)")
    con.executemany(
        "INSERT INTO tokens VALUES (?, ?)", [(i, w) for i, d in enumerate(docs) for w in d.split()]
    )
    con.execute(
        "CREATE TABLE labels AS SELECT * FROM (VALUES (0, 'china'), (1, 'china'), "
        "(2, 'china'), (3, 'japan')) AS t(doc_id, label)"
    )
    one_document(con, "test", "Chinese Chinese Chinese Tokyo Japan")
    model = sqlnb.train(con, "tokens", "labels", kind="bernoulli")
    s_c = 3 / 4 * 4 / 5 * 1 / 5 * 1 / 5 * (1 - 2 / 5) ** 3
    s_j = 1 / 4 * 2 / 3 * 2 / 3 * 2 / 3 * (1 - 1 / 3) ** 3
    assert round(s_c, 3) == 0.005 and round(s_j, 3) == 0.022  # as printed in the book
    [(_, label, p)] = model.predict("test").fetchall()
    assert label == "japan" and p == pytest.approx(s_j / (s_c + s_j), abs=1e-12)


# --- table kinds --------------------------------------------------------------------------------


def wide(con, name: str, X: np.ndarray, y, columns=None) -> list[str]:
    columns = columns or [f"x{i}" for i in range(X.shape[1])]
    frame = pd.DataFrame(X, columns=columns)
    frame.insert(0, "id", np.arange(len(frame)))
    if y is not None:
        frame["label"] = list(y)
    con.register("frame", frame)
    con.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")
    con.unregister("frame")
    return columns


@pytest.mark.parametrize(
    "loader",
    # digits: 64 features, 1,797 rows, about 17 s (issue 36: out of the quick loop, still in CI)
    [
        "iris",
        "wine",
        pytest.param("breast_cancer", marks=pytest.mark.slow),  # 10 s in CI
        pytest.param("digits", marks=pytest.mark.slow),
    ],
)
def test_gaussian_parity_on_scikit_learn_datasets(con, loader):
    X, y = getattr(datasets, f"load_{loader}")(return_X_y=True)
    order = np.random.default_rng(0).permutation(len(y))
    train, test = order[: len(y) * 3 // 4], order[len(y) * 3 // 4 :]
    wide(con, "train", X[train].astype(float), y[train])
    wide(con, "test", X[test].astype(float), None)
    model = sqlnb.train(con, sqlnb.Table("train"), kind="gaussian")
    reference = GaussianNB().fit(X[train], y[train])
    docs = list(range(len(test)))
    close(
        log_proba(model, sqlnb.Table("test", label=None), docs, list(reference.classes_)),
        reference.predict_log_proba(X[test]),
        reference.predict_joint_log_proba(X[test]),
    )
    assert labels_of(model, sqlnb.Table("test"), docs) == list(reference.predict(X[test]))
    means = con.execute("SELECT label, feature, mean, var FROM sqlnb_gaussian").fetchall()
    for label, feature, mean, var in means:
        k, j = list(reference.classes_).index(int(label)), int(feature[1:])
        assert mean == pytest.approx(reference.theta_[k, j], rel=1e-12, abs=1e-12)
        assert var == pytest.approx(reference.var_[k, j], rel=1e-9)


@pytest.mark.parametrize("seed,k,var_smoothing", [(61, 2, 1e-9), (62, 7, 1e-3), (63, 3, 0.0)])
def test_gaussian_parity_on_random_data(con, seed, k, var_smoothing):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, 400)
    X = rng.normal(size=(400, 6)) * (1 + y[:, None]) + y[:, None] * rng.normal(size=6)
    wide(con, "t", X, [f"c{v}" for v in y])
    model = sqlnb.train(con, sqlnb.Table("t"), kind="gaussian", var_smoothing=var_smoothing)
    reference = GaussianNB(var_smoothing=var_smoothing).fit(X, [f"c{v}" for v in y])
    close(
        log_proba(model, sqlnb.Table("t"), list(range(400)), list(reference.classes_)),
        reference.predict_log_proba(X),
    )


def test_gaussian_sample_variance_and_zero_variance(con):
    X = np.array([[1.0, 5.0], [2.0, 5.0], [4.0, 5.0], [10.0, 7.0], [11.0, 8.0]])
    wide(con, "t", X, ["a", "a", "a", "b", "b"])
    sqlnb.train(con, sqlnb.Table("t"), kind="gaussian", sample_variance=True, var_smoothing=0.5)
    var = dict(
        ((label, f), v)
        for label, f, v in con.execute("SELECT label, feature, var FROM sqlnb_gaussian").fetchall()
    )
    epsilon = 0.5 * max(np.var(X[:, 0]), np.var(X[:, 1]))
    assert var["a", "x0"] == pytest.approx(np.var([1, 2, 4], ddof=1) + epsilon, abs=1e-12)
    assert var["b", "x1"] == pytest.approx(np.var([7, 8], ddof=1) + epsilon, abs=1e-12)
    before = con.execute("SELECT * FROM sqlnb_gaussian ORDER BY ALL").fetchall()
    with pytest.raises(SqlnbError, match="feature 'x1' has variance 0 in class 'a'"):
        sqlnb.train(con, sqlnb.Table("t"), kind="gaussian", var_smoothing=0.0)
    assert con.execute("SELECT * FROM sqlnb_gaussian ORDER BY ALL").fetchall() == before


@pytest.mark.parametrize("seed,k,alpha", [(71, 2, 1.0), (72, 4, 0.5), (73, 3, 0.01)])
def test_categorical_parity(con, seed, k, alpha):
    rng = np.random.default_rng(seed)
    n, d = 300, 5
    y = rng.integers(0, k, n)
    X = np.column_stack([(rng.integers(0, 3 + j, n) + y * (j % 2)) % (3 + j) for j in range(d)])
    X[:, 0][y == 0] = 0  # a value never seen in some classes
    wide(con, "t", X.astype(np.int64), y)
    model = sqlnb.train(con, sqlnb.Table("t"), kind="categorical", alpha=alpha)
    reference = CategoricalNB(alpha=alpha).fit(X, y)
    close(
        log_proba(model, sqlnb.Table("t"), list(range(n)), list(reference.classes_)),
        reference.predict_log_proba(X),
    )
    assert labels_of(model, sqlnb.Table("t"), list(range(n))) == list(reference.predict(X))


def test_categorical_missing_values_are_marginalised(con):
    con.execute("""CREATE TABLE t AS SELECT * FROM (VALUES
        (1, 'y', 'a', 'x'), (2, 'y', NULL, 'x'), (3, 'n', 'b', 'z'), (4, NULL, 'b', 'z'),
        (5, 'n', 'a', 'x')) AS v(id, f, g, label)""")
    con.execute(
        "CREATE TABLE q AS SELECT * FROM (VALUES (9, 'y', NULL), (8, 'w', 'b')) AS v(id, f, g)"
    )
    model = sqlnb.train(con, sqlnb.Table("t"), kind="categorical")
    p = {(d, label): v for d, label, v in model.predict_proba(sqlnb.Table("q")).fetchall()}
    # The prior counts every row; each feature counts its non-missing rows. alpha = 1, C = 2.
    prior = {"x": 3 / 5, "z": 2 / 5}
    f_y = {"x": (2 + 1) / (3 + 2), "z": (0 + 1) / (1 + 2)}
    s = {c: prior[c] * f_y[c] for c in prior}  # row 9: g is NULL, left out
    assert p[9, "x"] == pytest.approx(s["x"] / (s["x"] + s["z"]), abs=1e-12)
    g_b = {"x": (0 + 1) / (2 + 2), "z": (2 + 1) / (2 + 2)}  # row 8: f = 'w' never seen
    s = {c: prior[c] * g_b[c] for c in prior}
    assert p[8, "x"] == pytest.approx(s["x"] / (s["x"] + s["z"]), abs=1e-12)
    with pytest.raises(SqlnbError, match="feature 'f' has value 'w', never seen"):
        model.predict_to(sqlnb.Table("q"), "out", unseen="error")


def test_mixed_is_the_sum_of_gaussian_and_categorical(con):
    rng = np.random.default_rng(81)
    n = 300
    y = rng.integers(0, 3, n)
    cont = rng.normal(size=(n, 3)) + y[:, None]
    cats = np.column_stack([(rng.integers(0, 4, n) + y) % 4, rng.integers(0, 2, n)])
    frame = pd.DataFrame(
        {
            "id": np.arange(n),
            "u": cont[:, 0],
            "v": cont[:, 1],
            "w": cont[:, 2],
            "color": [f"c{c}" for c in cats[:, 0]],
            "flag": cats[:, 1] == 1,
            "label": [f"k{v}" for v in y],
        }
    )
    con.register("frame", frame)
    con.execute("CREATE TABLE t AS SELECT * FROM frame")
    model = sqlnb.train(
        con, sqlnb.Table("t")
    )  # mixed: DOUBLE Gaussian, VARCHAR/BOOLEAN categorical
    assert model.kind_name == "mixed"
    assert model.params["features"] == [
        ["u", "gaussian"],
        ["v", "gaussian"],
        ["w", "gaussian"],
        ["color", "categorical"],
        ["flag", "categorical"],
    ]
    labels = frame["label"].to_numpy()
    gnb = GaussianNB().fit(cont, labels)
    cnb = CategoricalNB().fit(cats, labels)
    jll = (
        gnb.predict_joint_log_proba(cont)
        + cnb.predict_joint_log_proba(cats)
        - np.log(cnb.class_count_ / cnb.class_count_.sum())
    )
    expected = jll - np.logaddexp.reduce(jll, axis=1, keepdims=True)
    close(log_proba(model, sqlnb.Table("t"), list(range(n)), list(gnb.classes_)), expected)
    # An override wins over the column type; extra columns at prediction are ignored.
    con.execute("CREATE TABLE t2 AS SELECT *, 42 AS extra FROM t")
    forced = sqlnb.train(con, sqlnb.Table("t", gaussian=(), categorical=("u",)), model="forced")
    assert ["u", "categorical"] in forced.params["features"]
    assert len(model.predict(sqlnb.Table("t2")).fetchall()) == n


def test_hyperparameters_are_refused_where_they_are_not_defined(con):
    corpus = random_corpus(91, n_classes=2)
    corpus.load(con)
    con.execute(
        "CREATE TABLE w AS SELECT * FROM (VALUES (1, 1.5, 'a'), (2, 2.5, 'b')) AS v(id, x, label)"
    )
    cases = [
        (dict(kind="multinomial", beta=1.0), "does not use --beta"),
        (dict(kind="multinomial", norm=True), "does not use --norm"),
        (dict(kind="complement", class_prior={"class 00": 0.5, "class 01": 0.5}), "no class prior"),
        (dict(kind="complement", fit_prior=False), "no class prior"),
        (dict(kind="complement", alpha=0.0), "alpha must be a finite number > 0"),
        (dict(kind="bernoulli", alpha=-1.0), "alpha must be"),
        (dict(kind="bernoulli", beta=-0.5), "beta must be"),
        (dict(kind="gaussian"), "trains from a wide table"),
    ]
    for options, message in cases:
        with pytest.raises(SqlnbError, match=message):
            sqlnb.train(con, "train_tokens", "train_labels", **options)
    for options, message in [
        (dict(kind="gaussian", alpha=1.0), "does not use --alpha"),
        (dict(kind="categorical", var_smoothing=1.0), "--var-smoothing"),
        (dict(kind="multinomial"), "trains from a tokens table"),
    ]:
        with pytest.raises(SqlnbError, match=message):
            sqlnb.train(con, sqlnb.Table("w"), **options)
    # Defined ones work for every kind that has them: priors for the table kinds too.
    m = sqlnb.train(con, sqlnb.Table("w"), kind="gaussian", class_prior={"a": 0.9, "b": 0.1})
    assert [round(math.exp(c["log_prior"]), 12) for c in m.classes()] == [0.9, 0.1]
    m = sqlnb.train(con, sqlnb.Table("w"), kind="categorical", fit_prior=False, model="u")
    assert [c["log_prior"] for c in m.classes()] == [-math.log(2)] * 2
