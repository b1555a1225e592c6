"""Models that grow and explain themselves: append (partial_fit), retune, sample weights,
explanations, the linear form, model files and cross-validated alpha."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest
from conftest import copy_database, random_corpus
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.model_selection import GridSearchCV, PredefinedSplit
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, ComplementNB, GaussianNB, MultinomialNB
from sklearn.pipeline import Pipeline

import sqlnb
from sqlnb.errors import SqlnbError
from sqlnb.files import export_model, import_model


def load(con, name: str, frame: pd.DataFrame) -> None:
    con.register("frame", frame)
    con.execute(f'CREATE OR REPLACE TABLE "{name}" AS SELECT * FROM frame')
    con.unregister("frame")


def table_frame(seed: int, n: int = 240) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    return pd.DataFrame(
        {
            "id": np.arange(n),
            "a": rng.normal(size=n) * 3 + y,
            "b": rng.normal(size=n) + y * 0.5,
            "c": [f"v{v}" for v in (rng.integers(0, 3, n) + y) % 4],
            "label": [f"k{v}" for v in y],
        }
    )


def log_probas(model: sqlnb.Model, data) -> dict:
    return {(d, label): lp for d, label, lp in model.predict_log_proba(data).fetchall()}


def counts(con, model: str, table: str, keys: str) -> list:
    return sorted(
        con.execute(
            f"SELECT c.label, {keys} FROM {table} AS t JOIN sqlnb_classes AS c "
            f"ON c.model = t.model AND c.class_id = t.class_id WHERE t.model = '{model}'"
        ).fetchall()
    )


TEXT_KINDS = ["multinomial", "bernoulli", "complement"]
FEATURES = {"gaussian": ("a", "b"), "categorical": ("c",), "mixed": None}
TABLE_KINDS = ["gaussian", "categorical", "mixed"]


@pytest.fixture(scope="module")
def unions(tmp_path_factory) -> Callable[[str], Path]:
    """A kind's data and its model "whole" trained on all of it, in a DuckDB file: trained
    once per kind for every number of batches (issue 36), each test appending to a copy."""
    files: dict[str, Path] = {}

    def union(kind: str) -> Path:
        if kind not in files:
            path = tmp_path_factory.mktemp("union") / f"{kind}.duckdb"
            with duckdb.connect(str(path)) as con:
                if kind in TEXT_KINDS:
                    random_corpus(101, n_classes=4, vocab=400, n_train=200).load(con)
                    data, given = "train_tokens", "train_labels"
                else:
                    load(con, "t", table_frame(102))
                    data, given = sqlnb.Table("t", features=FEATURES[kind]), None
                sqlnb.train(con, data, given, model="whole", kind=kind)
            files[kind] = path
        return files[kind]

    return union


@pytest.mark.parametrize("kind", TEXT_KINDS + TABLE_KINDS)
# 10 batches: 10-14 s per kind in CI (issue 36: out of the quick loop, still in CI)
@pytest.mark.parametrize("batches", [1, 2, pytest.param(10, marks=pytest.mark.slow)])
def test_append_equals_training_on_the_union(unions, tmp_path, kind, batches):
    con = duckdb.connect(str(copy_database(unions(kind), tmp_path / "db.duckdb")))
    if kind in TEXT_KINDS:
        labels = con.execute("SELECT * FROM train_labels ORDER BY doc_id").df()
        data, test = "train_tokens", "test_tokens"
    else:
        labels = con.execute("SELECT * FROM t ORDER BY id").df()
        features = FEATURES[kind]
        data, test = sqlnb.Table("t", features=features), sqlnb.Table("t")
    whole = sqlnb.load(con, "whole")
    # Batches by id; the first lacks a class, so a new class appears on appending.
    ids = labels.iloc[:, 0].to_numpy()
    order = np.argsort((ids * 7919) % 1009, kind="stable")
    parts = np.array_split(order, batches)
    first = labels.iloc[parts[0]]
    missing = sorted(set(labels["label"]))[-1]
    if batches > 1:
        moved = first[first["label"] == missing]
        first = first[first["label"] != missing]
        parts[1] = np.concatenate([parts[1], moved.index.to_numpy()])
    for i, part in enumerate([first.index.to_numpy(), *parts[1:]]):
        batch = labels.loc[part]
        if kind in TEXT_KINDS:
            load(con, "batch", batch[["doc_id", "label"]])
            source, given = data, "batch"
        else:
            load(con, "batch", batch)
            source, given = sqlnb.Table("batch", features=features), None
        if i == 0:
            grown = sqlnb.train(con, source, given, model="grown", kind=kind)
        else:
            grown = sqlnb.append(con, source, given, model="grown")
    assert counts(con, "grown", "sqlnb_classes", "t.n_docs") == counts(
        con, "whole", "sqlnb_classes", "t.n_docs"
    )
    stored = {t.name for t in grown.kind.tables if t.counts}
    for table, keys in {
        "sqlnb_word_counts": "t.word, t.count",
        "sqlnb_category_counts": "t.feature, t.value, t.count",
    }.items():
        if table in stored:
            assert counts(con, "grown", table, keys) == counts(con, "whole", table, keys)
    if "sqlnb_gaussian_stats" in stored:
        a = counts(con, "grown", "sqlnb_gaussian_stats", "t.feature, t.n, t.mean, t.m2")
        b = counts(con, "whole", "sqlnb_gaussian_stats", "t.feature, t.n, t.mean, t.m2")
        np.testing.assert_allclose([r[2:] for r in a], [r[2:] for r in b], rtol=1e-12)
    a, b = log_probas(grown, test), log_probas(whole, test)
    assert a.keys() == b.keys()
    assert max(abs(a[k] - b[k]) for k in a) <= 1e-9


def test_append_equals_partial_fit(con):
    corpus = random_corpus(103, n_classes=3, vocab=300, n_train=150)
    corpus.load(con)
    X, y, X_test, docs = corpus.matrices()
    reference = MultinomialNB()
    halves = np.array_split(np.arange(len(y)), 2)
    reference.partial_fit(X[halves[0]], y[halves[0]], classes=sorted(set(y)))
    reference.partial_fit(X[halves[1]], y[halves[1]])
    labels = corpus.train_labels
    load(con, "h0", labels.iloc[halves[0]])
    load(con, "h1", labels.iloc[halves[1]])
    sqlnb.train(con, "train_tokens", "h0", model="p")
    model = sqlnb.append(con, "train_tokens", "h1", model="p")
    got = log_probas(model, "test_tokens")
    expected = reference.predict_log_proba(X_test)
    for i, d in enumerate(docs):
        for j, c in enumerate(reference.classes_):
            assert got[d, c] == pytest.approx(expected[i, j], abs=1e-9)
    rng = np.random.default_rng(104)
    Xg, yg = rng.normal(size=(200, 4)), rng.integers(0, 2, 200)
    gaussian = GaussianNB()
    gaussian.partial_fit(Xg[:120], yg[:120], classes=[0, 1])
    gaussian.partial_fit(Xg[120:], yg[120:])
    frame = pd.DataFrame(Xg, columns=list("abcd"))
    frame.insert(0, "id", np.arange(200))
    frame["label"] = yg
    load(con, "g0", frame.iloc[:120])
    load(con, "g1", frame.iloc[120:])
    load(con, "g", frame)
    sqlnb.train(con, sqlnb.Table("g0"), model="g", kind="gaussian")
    model = sqlnb.append(con, sqlnb.Table("g1"), model="g")
    got = log_probas(model, sqlnb.Table("g"))
    # scikit-learn takes epsilon from the first batch only; sqlnb from the union: compare the
    # means and variances without it.
    stats = {
        (int(label), f): (m, v)
        for label, f, m, v in con.execute(
            "SELECT label, feature, mean, var FROM sqlnb_gaussian WHERE model = 'g'"
        ).fetchall()
    }
    for k in (0, 1):
        for j, f in enumerate("abcd"):
            assert stats[k, f][0] == pytest.approx(gaussian.theta_[k, j], abs=1e-12)
            assert stats[k, f][1] - model.params["var_smoothing"] * 0 == pytest.approx(
                gaussian.var_[k, j] - gaussian.epsilon_, rel=1e-9, abs=1e-8
            )
    assert got


def test_append_refuses_other_settings(con):
    corpus = random_corpus(105, n_classes=2)
    corpus.load(con)
    sqlnb.train(con, "train_tokens", "train_labels", model="m")
    with pytest.raises(SqlnbError, match="no model named 'nope'"):
        sqlnb.append(con, "train_tokens", "train_labels", model="nope")
    con.execute("CREATE TABLE int_labels AS SELECT doc_id, 1 AS label FROM train_labels")
    with pytest.raises(SqlnbError, match="trained on VARCHAR labels"):
        sqlnb.append(con, "train_tokens", "int_labels", model="m")


@pytest.mark.slow  # 8 s in CI (issue 36: out of the quick loop, still in CI)
def test_retune_equals_training_with_those_settings(con):
    corpus = random_corpus(106, n_classes=3, vocab=300)
    corpus.load(con)
    sqlnb.train(con, "train_tokens", "train_labels", model="m", kind="bernoulli")
    expected = sqlnb.train(
        con,
        "train_tokens",
        "train_labels",
        model="e",
        kind="bernoulli",
        alpha=0.3,
        beta=2.0,
        prior_alpha=1.5,
    )
    con.execute("ALTER TABLE train_tokens RENAME TO gone")
    con.execute("ALTER TABLE train_labels RENAME TO gone_labels")
    model = sqlnb.retune(con, "m", alpha=0.3, beta=2.0, prior_alpha=1.5)
    a, b = log_probas(model, "test_tokens"), log_probas(expected, "test_tokens")
    assert max(abs(a[k] - b[k]) for k in a) <= 1e-12
    assert model.params["alpha"] == 0.3 and model.params["beta"] == 2.0
    given = sqlnb.retune(con, "m", class_prior={"class 00": 0.2, "class 01": 0.3, "class 02": 0.5})
    assert [round(math.exp(c["log_prior"]), 12) for c in given.classes()] == [0.2, 0.3, 0.5]
    back = sqlnb.retune(con, "m", fit_prior=True)
    assert back.params["class_prior"] is None
    with pytest.raises(SqlnbError, match="does not use --var-smoothing"):
        sqlnb.retune(con, "m", var_smoothing=0.1)
    frame = table_frame(107)
    load(con, "t", frame)
    numeric = sqlnb.Table("t", features=("a", "b"))
    sqlnb.train(con, numeric, model="g", kind="gaussian")
    tuned = sqlnb.retune(con, "g", var_smoothing=0.01)
    direct = sqlnb.train(con, numeric, model="g2", kind="gaussian", var_smoothing=0.01)
    a, b = log_probas(tuned, sqlnb.Table("t")), log_probas(direct, sqlnb.Table("t"))
    assert max(abs(a[k] - b[k]) for k in a) <= 1e-12


@pytest.mark.parametrize(
    "kind,estimator",
    [("multinomial", MultinomialNB), ("bernoulli", BernoulliNB), ("complement", ComplementNB)],
)
def test_sample_weights_text(con, kind, estimator):
    corpus = random_corpus(108, n_classes=3, vocab=300, n_train=120)
    corpus.load(con)
    rng = np.random.default_rng(109)
    weights = rng.integers(1, 4, len(corpus.train_labels)).astype(float)
    labels = corpus.train_labels.assign(w=weights)
    load(con, "weighted", labels)
    model = sqlnb.train(
        con, "train_tokens", sqlnb.Labels("weighted", weight="w"), kind=kind, model="w"
    )
    X, y, X_test, docs = corpus.matrices()
    reference = estimator().fit(X, y, sample_weight=weights)
    got = log_probas(model, "test_tokens")
    expected = reference.predict_log_proba(X_test)
    for i, d in enumerate(docs):
        for j, c in enumerate(reference.classes_):
            assert got[d, c] == pytest.approx(expected[i, j], abs=1e-9)
    # Integer weights equal repeating rows, exactly.
    repeated = labels.loc[labels.index.repeat(labels["w"].astype(int))]
    repeated = repeated.assign(doc_id=np.arange(len(repeated)) + 10**6, src=repeated["doc_id"])
    load(con, "rep_labels", repeated[["doc_id", "label"]])
    con.register("rep", repeated)
    con.execute(
        "CREATE TABLE rep_tokens AS SELECT r.doc_id, t.word, t.count FROM rep AS r "
        "JOIN train_tokens AS t ON t.doc_id = r.src"
    )
    again = sqlnb.train(con, "rep_tokens", "rep_labels", kind=kind, model="r")
    assert counts(con, "w", "sqlnb_word_counts", "t.word, t.count") == counts(
        con, "r", "sqlnb_word_counts", "t.word, t.count"
    )
    a, b = log_probas(model, "test_tokens"), log_probas(again, "test_tokens")
    assert max(abs(a[k] - b[k]) for k in a) <= 1e-12


@pytest.mark.slow  # 8 s in CI (issue 36: out of the quick loop, still in CI)
def test_sample_weights_tables(con):
    frame = table_frame(110)
    rng = np.random.default_rng(111)
    frame["w"] = rng.integers(1, 4, len(frame)).astype(float)
    load(con, "t", frame)
    for smoothing in (1e-9, 0.3):  # scaled by the unweighted variances, as scikit-learn
        gaussian = sqlnb.train(
            con,
            sqlnb.Table("t", features=("a", "b"), weight="w"),
            kind="gaussian",
            model="g",
            var_smoothing=smoothing,
        )
        reference = GaussianNB(var_smoothing=smoothing).fit(
            frame[["a", "b"]], frame["label"], sample_weight=frame["w"]
        )
        got = log_probas(gaussian, sqlnb.Table("t"))
        expected = reference.predict_log_proba(frame[["a", "b"]])
        for i in range(len(frame)):
            for j, c in enumerate(reference.classes_):
                assert got[i, c] == pytest.approx(expected[i, j], abs=1e-9)
    # appending adds the unweighted statistics up; a model stored before them (no
    # sqlnb_gaussian_spread rows) pools its class statistics, the same without weights
    half = frame.iloc[: len(frame) // 2]
    load(con, "first", half)
    load(con, "second", frame.iloc[len(frame) // 2 :])
    load(con, "plain", frame.drop(columns="w"))
    for model, weight in (("weighted", "w"), ("old", None)):
        whole = sqlnb.train(
            con,
            sqlnb.Table("t" if weight else "plain", features=("a", "b"), weight=weight),
            kind="gaussian",
            model=f"{model}_whole",
            var_smoothing=0.3,
        )
        sqlnb.train(
            con,
            sqlnb.Table("first", features=("a", "b"), weight=weight),
            kind="gaussian",
            model=model,
            var_smoothing=0.3,
        )
        if weight is None:
            con.execute(f"DELETE FROM sqlnb_gaussian_spread WHERE model = '{model}'")
        grown = sqlnb.append(
            con, sqlnb.Table("second", features=("a", "b"), weight=weight), model=model
        )
        a, b = log_probas(grown, sqlnb.Table("t")), log_probas(whole, sqlnb.Table("t"))
        assert max(abs(a[k] - b[k]) for k in a) <= 1e-9
    categorical = sqlnb.train(
        con, sqlnb.Table("t", features=("c",), weight="w"), kind="categorical", model="c"
    )
    codes = frame["c"].str[1:].astype(int).to_numpy()[:, None]
    reference = CategoricalNB().fit(codes, frame["label"], sample_weight=frame["w"])
    got = log_probas(categorical, sqlnb.Table("t"))
    expected = reference.predict_log_proba(codes)
    for i in range(len(frame)):
        for j, c in enumerate(reference.classes_):
            assert got[i, c] == pytest.approx(expected[i, j], abs=1e-9)
    assert ["w", "gaussian"] not in gaussian.params["features"]


@pytest.mark.parametrize("kind", TEXT_KINDS + TABLE_KINDS)
def test_explanations_add_up(con, kind):
    if kind in TEXT_KINDS:
        corpus = random_corpus(112, n_classes=3, vocab=200)
        corpus.load(con)
        model = sqlnb.train(con, "train_tokens", "train_labels", kind=kind)
        data = "test_tokens"
    else:
        load(con, "t", table_frame(113))
        model = sqlnb.train(con, sqlnb.Table("t", features=FEATURES[kind]), kind=kind)
        data = sqlnb.Table("t")
    probas: dict = {}
    for d, _, lp in model.predict_log_proba(data).fetchall():
        probas.setdefault(d, []).append(lp)
    for top in (None, 3):
        totals: dict = {}
        rows = model.explain(data, top=top).fetchall()
        for d, _, contribution in rows:
            totals[d] = totals.get(d, 0.0) + contribution
        assert totals.keys() == probas.keys()
        for d, lps in probas.items():
            first, second = sorted(lps)[-1], sorted(lps)[-2]
            assert totals[d] == pytest.approx(first - second, abs=1e-9)
        if top:
            per_doc = {}
            for d, feature, _ in rows:
                per_doc.setdefault(d, set()).add(feature)
            assert all(len(f - {"(prior)", "(other)"}) <= 3 for f in per_doc.values())
    one = model.explain(data, doc="3" if kind in TABLE_KINDS else "100003").fetchall()
    assert {r[0] for r in one} == {3 if kind in TABLE_KINDS else 100003}


@pytest.mark.parametrize("kind", ["multinomial", "bernoulli", "complement"])
def test_linear_form_gives_the_log_odds(con, kind):
    corpus = random_corpus(114, n_classes=2, vocab=300)
    corpus.load(con)
    model = sqlnb.train(con, "train_tokens", "train_labels", kind=kind)
    model.db.write_table("w", model.weights_query())
    presence = "1" if kind == "bernoulli" else "t.count"
    scored = dict(
        con.execute(f"""
        SELECT d.doc_id, COALESCE(s.score, 0) + (SELECT weight FROM w WHERE feature = '(bias)')
        FROM (SELECT DISTINCT doc_id FROM test_tokens) AS d
        LEFT JOIN (SELECT t.doc_id, SUM({presence} * w.weight) AS score
                   FROM (SELECT doc_id, word, SUM(count) AS count FROM test_tokens
                         GROUP BY doc_id, word) AS t
                   JOIN w ON w.feature = t.word GROUP BY t.doc_id) AS s
          ON s.doc_id = d.doc_id""").fetchall()
    )
    lp = log_probas(model, "test_tokens")
    for d, score in scored.items():
        assert score == pytest.approx(lp[d, "class 01"] - lp[d, "class 00"], abs=1e-9)
    three = random_corpus(115, n_classes=3)
    three.train_labels.to_csv  # noqa: B018 - a corpus with three classes
    load(con, "l3", three.train_labels)
    load(con, "t3", three.train_tokens)
    m3 = sqlnb.train(con, "t3", "l3", model="three", kind=kind)
    with pytest.raises(SqlnbError, match="needs exactly two"):
        m3.weights_query()


def test_model_files_travel_between_engines(con, engine, tmp_path):
    corpus = random_corpus(116, n_classes=3, vocab=200, n_train=90, label_kind="int")
    corpus.load(con)
    model = sqlnb.train(
        con, "train_tokens", "train_labels", model="m", kind="bernoulli", alpha=0.3, beta=2.0
    )
    export_model(model.db, "m", tmp_path / "m")
    engine.load("test_tokens", corpus.test_tokens)
    engine.load("train_tokens", corpus.train_tokens)
    engine.load("more", corpus.train_labels)
    name = import_model(engine.db, tmp_path / "m", "copy")
    copy = sqlnb.load(engine.db, name)
    a = sorted(model.db.fetch(model.prediction_query("test_tokens", proba=True)))
    b = sorted(engine.db.fetch(copy.prediction_query("test_tokens", proba=True)))
    assert [r[:2] for r in a] == [r[:2] for r in b]
    assert max(abs(x[2] - y[2]) for x, y in zip(a, b) if x[2] is not None) <= 1e-9
    grown = sqlnb.append(engine.db, "train_tokens", "more", model=name)
    assert grown.info["n_docs"] == 2 * model.info["n_docs"]


def test_tune_picks_gridsearchcv_alpha(con):
    from test_text import PYTHON_PATTERN, corpus

    docs = corpus(117, n=90)
    load(con, "docs", docs)
    tables = con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    alphas = [0.001, 0.1, 1.0, 10.0, 100.0]
    result = sqlnb.tune(con, sqlnb.Docs("docs"), alphas=alphas, folds=4)
    assert con.execute("SELECT table_name FROM information_schema.tables").fetchall() == tables
    folds = dict(con.execute("SELECT doc_id, hash(doc_id) % 4 FROM docs").fetchall())
    pipeline = Pipeline(
        [("v", CountVectorizer(token_pattern=PYTHON_PATTERN)), ("nb", MultinomialNB())]
    )
    search = GridSearchCV(
        pipeline,
        {"nb__alpha": alphas},
        cv=PredefinedSplit([folds[d] for d in docs["doc_id"]]),
        scoring={"accuracy": "accuracy", "log_loss": "neg_log_loss"},
        refit="accuracy",
    ).fit(docs["text"], docs["label"])
    assert result["best_alpha"] == search.best_params_["nb__alpha"]
    np.testing.assert_allclose(
        [r["accuracy"] for r in result["results"]],
        search.cv_results_["mean_test_accuracy"],
        atol=1e-12,
    )
    np.testing.assert_allclose(
        [r["log_loss"] for r in result["results"]],
        -search.cv_results_["mean_test_log_loss"],
        atol=1e-9,
    )
    assert len({r["accuracy"] for r in result["results"]}) > 1, "alpha should matter here"


def test_tune_keeps_the_other_hyperparameters_fixed(con):
    """tune's other hyperparameters (here a TF-IDF transform) are the same in every fold: the
    command line's --idf gives the API's results."""
    corpus = random_corpus(31, n_classes=3, vocab=200, n_train=150)
    corpus.load(con)
    plain = sqlnb.tune(con, "train_tokens", "train_labels", alphas=[0.1, 1.0], folds=3)
    fixed = sqlnb.tune(
        con, "train_tokens", "train_labels", alphas=[0.1, 1.0], folds=3, idf="smooth"
    )
    assert [r["log_loss"] for r in plain["results"]] != [r["log_loss"] for r in fixed["results"]]
    with pytest.raises(SqlnbError, match="does not use --beta"):
        sqlnb.tune(con, "train_tokens", "train_labels", alphas=[1.0], folds=3, beta=2.0)
