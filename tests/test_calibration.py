"""Issue 26: class weights, calibration, calibration measures, costs and new priors, through the
command line (each command its own process), against scikit-learn and numpy on held-out data:
a real imbalanced table (scikit-learn's breast cancer data, 212 malignant / 357 benign) and an
imbalanced random text corpus (three classes, 60 : 30 : 10)."""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import cli
import duckdb
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize_scalar
from scipy.special import log_softmax
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_breast_cancer
from sklearn.frozen import FrozenEstimator
from sklearn.naive_bayes import BernoulliNB, ComplementNB, GaussianNB, MultinomialNB
from sklearn.utils.class_weight import compute_sample_weight


def sqlnb(*args: object, ok: bool = True) -> cli.Result:
    """One command, in this process (tests/cli.py); ``ok``: it must exit 0."""
    return cli.run(*args, ok=ok)


def snapshot(path: Path) -> dict[str, list]:
    with duckdb.connect(str(path), read_only=True) as con:
        names = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()]
        return {n: sorted(map(repr, con.execute(f'SELECT * FROM "{n}"').fetchall())) for n in names}


def frame(path: Path, query: str) -> pd.DataFrame:
    with duckdb.connect(str(path), read_only=True) as con:
        return con.execute(query).df()


# --- the data --------------------------------------------------------------------------------


def text_corpus(seed: int = 3, n: int = 900, vocab: int = 150) -> pd.DataFrame:
    """(doc_id, word, count, label, part): three imbalanced classes, split train / calibration /
    held-out."""
    rng = np.random.default_rng(seed)
    base = 1.0 / np.arange(1, vocab + 1) ** 1.1
    rates = np.array([rng.permutation(base) + 2 * base for _ in range(3)])
    rates /= rates.sum(axis=1, keepdims=True)
    classes = rng.choice(3, size=n, p=[0.6, 0.3, 0.1])
    rows = []
    for doc, c in enumerate(classes):
        drawn = rng.choice(vocab, size=int(rng.integers(5, 40)), p=rates[c])
        words, counts = np.unique(drawn, return_counts=True)
        part = ("train", "calibration", "held_out")[doc % 3]
        rows += [(doc, f"w{w}", int(k), f"c{c}", part) for w, k in zip(words, counts)]
    return pd.DataFrame(rows, columns=["doc_id", "word", "count", "label", "part"])


@pytest.fixture(scope="module")
def text_db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("text") / "t.duckdb"
    corpus = text_corpus()
    with duckdb.connect(str(path)) as con:
        con.register("corpus", corpus)
        for part in ("train", "calibration", "held_out"):
            con.execute(
                f"CREATE TABLE {part}_tokens AS SELECT doc_id, word, count FROM corpus "
                f"WHERE part = '{part}'"
            )
            con.execute(
                f"CREATE TABLE {part}_labels AS SELECT DISTINCT doc_id, label FROM corpus "
                f"WHERE part = '{part}'"
            )
    (path.parent / "data.duckdb").write_bytes(path.read_bytes())  # before any model is added
    return path


def matrix(path: Path, part: str, vocab: list[str]) -> tuple[sp.csr_matrix, np.ndarray, list]:
    tokens = frame(path, f"SELECT * FROM {part}_tokens")
    labels = frame(path, f"SELECT * FROM {part}_labels ORDER BY doc_id")
    docs = list(labels["doc_id"])
    row = {d: i for i, d in enumerate(docs)}
    index = {w: i for i, w in enumerate(vocab)}
    known = tokens[tokens["word"].isin(index)]
    x = sp.csr_matrix(
        (
            known["count"].astype(float),
            (known["doc_id"].map(row), known["word"].map(index)),
        ),
        shape=(len(docs), len(vocab)),
    )
    return x, labels["label"].to_numpy(), docs


@functools.cache
def text_data(path: Path):
    """Each part's count matrix over the training vocabulary, its labels and documents: read
    once per database file (the tests add models and tables, never change these three parts;
    callers only read the arrays)."""
    vocab = sorted(frame(path, "SELECT DISTINCT word FROM train_tokens")["word"])
    return {part: matrix(path, part, vocab) for part in ("train", "calibration", "held_out")}


@pytest.fixture(scope="module")
def cancer_db(tmp_path_factory) -> Path:
    """The breast cancer data as a wide table, split by row number."""
    path = tmp_path_factory.mktemp("cancer") / "c.duckdb"
    data = load_breast_cancer()
    x = pd.DataFrame(data.data[:, :10], columns=[f"f{i}" for i in range(10)])
    x["label"] = np.where(data.target == 1, "benign", "malignant")
    x["id"] = range(len(x))
    with duckdb.connect(str(path)) as con:
        con.register("x", x)
        for part, r in (("train", 0), ("calibration", 1), ("held_out", 2)):
            con.execute(f"CREATE TABLE {part} AS SELECT * FROM x WHERE id % 3 = {r}")
    return path


def cancer(path: Path, part: str) -> tuple[np.ndarray, np.ndarray]:
    rows = frame(path, f"SELECT * FROM {part} ORDER BY id")
    return rows[[f"f{i}" for i in range(10)]].to_numpy(), rows["label"].to_numpy()


def proba(path: Path, *args: object) -> np.ndarray:
    """predict --proba's posteriors, documents by classes in sorted order."""
    sqlnb("predict", path, *args, "--proba", "--output", "out", "--replace")
    rows = frame(path, "SELECT doc_id, label, proba FROM out ORDER BY doc_id, label")
    return rows["proba"].to_numpy().reshape(rows["doc_id"].nunique(), -1)


# --- class weights ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["multinomial", "bernoulli", "complement"])
@pytest.mark.parametrize("weights", ["balanced", "c0=1,c1=2.5,c2=7"])
def test_class_weights_equal_sample_weighted_scikit_learn(text_db, kind, weights):
    data = text_data(text_db)
    x, y, _ = data["train"]
    given = weights if weights == "balanced" else {"c0": 1, "c1": 2.5, "c2": 7}
    nb = {"multinomial": MultinomialNB, "bernoulli": BernoulliNB, "complement": ComplementNB}
    reference = nb[kind]().fit(x, y, sample_weight=compute_sample_weight(given, y))
    name = f"{kind}_{weights[:3]}"
    sqlnb(
        "train",
        text_db,
        "--model",
        name,
        "--kind",
        kind,
        "--tokens",
        "train_tokens",
        "--labels",
        "train_labels",
        "--class-weight",
        weights,
    )
    got = proba(text_db, "--model", name, "--tokens", "held_out_tokens")
    want = reference.predict_proba(data["held_out"][0])
    assert np.abs(got - want).max() < 1e-9


@pytest.mark.parametrize("weights", ["balanced", "benign=1,malignant=4"])
def test_class_weights_for_the_gaussian_table(cancer_db, weights):
    x, y = cancer(cancer_db, "train")
    given = weights if weights == "balanced" else {"benign": 1, "malignant": 4}
    # the variance smoothing scales by the unweighted variances, as scikit-learn's
    for smoothing in (1e-9, 1e-3):
        reference = GaussianNB(var_smoothing=smoothing).fit(
            x, y, sample_weight=compute_sample_weight(given, y)
        )
        sqlnb("train", cancer_db, "--model", "g", "--table", "train", "--class-weight", weights,
              "--var-smoothing", smoothing)  # fmt: skip
        got = proba(cancer_db, "--model", "g", "--table", "held_out")
        want = reference.predict_proba(cancer(cancer_db, "held_out")[0])
        assert np.abs(got - want).max() < 1e-9


def test_class_weights_are_kept_by_append_and_retune_and_checked(text_db, tmp_path):
    path = tmp_path / "w.duckdb"
    path.write_bytes(text_db.read_bytes())
    weights = "c0=1,c1=3,c2=9"
    sqlnb(
        "train",
        path,
        "--model",
        "w",
        "--tokens",
        "train_tokens",
        "--labels",
        "train_labels",
        "--class-weight",
        weights,
    )
    sqlnb(
        "train",
        path,
        "--model",
        "w",
        "--tokens",
        "calibration_tokens",
        "--labels",
        "calibration_labels",
        "--append",
    )
    sqlnb("retune", path, "--model", "w", "--alpha", "0.5")
    data = text_data(path)  # the training vocabulary: the union's is larger
    vocab = sorted(
        frame(
            path,
            "SELECT DISTINCT word FROM train_tokens UNION "
            "SELECT DISTINCT word FROM calibration_tokens",
        )["word"]
    )
    parts = [matrix(path, p, vocab) for p in ("train", "calibration", "held_out")]
    x = sp.vstack([parts[0][0], parts[1][0]])
    y = np.concatenate([parts[0][1], parts[1][1]])
    given = {"c0": 1, "c1": 3, "c2": 9}
    reference = MultinomialNB(alpha=0.5).fit(x, y, sample_weight=compute_sample_weight(given, y))
    got = proba(path, "--model", "w", "--tokens", "held_out_tokens")
    assert np.abs(got - reference.predict_proba(parts[2][0])).max() < 1e-9
    assert data  # (the training-only matrices are not the union's)

    sqlnb(
        "train",
        path,
        "--model",
        "b",
        "--tokens",
        "train_tokens",
        "--labels",
        "train_labels",
        "--class-weight",
        "balanced",
    )
    before = snapshot(path)
    for args, message in [
        (
            (
                "train",
                "--model",
                "x",
                "--tokens",
                "train_tokens",
                "--labels",
                "train_labels",
                "--class-weight",
                "c9=2",
            ),
            "class weight names 'c9'",
        ),
        (
            (
                "train",
                "--model",
                "x",
                "--tokens",
                "train_tokens",
                "--labels",
                "train_labels",
                "--class-weight",
                "c1=-2",
            ),
            "class_weight must be 'balanced' or map labels",
        ),
        (("retune", "--model", "b", "--class-weight", "c1=2"), "train it again"),
    ]:
        done = sqlnb(args[0], path, *args[1:], ok=False)
        assert done.returncode == 1 and message in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        assert snapshot(path) == before


@pytest.mark.parametrize("kind", ["multinomial", "bernoulli", "complement"])
def test_balanced_append_equals_balanced_training_on_the_union(text_db, tmp_path, kind):
    """'balanced' weighs by every training document's class: appending weighs the model's
    counts and the batch again by the union's class sizes (the batch's first batch lacks a
    class, which the second brings)."""
    path = tmp_path / "bal.duckdb"
    path.write_bytes(text_db.read_bytes())
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE first_labels AS SELECT * FROM train_labels WHERE label <> 'c2'")
        con.execute(
            "CREATE TABLE second_labels AS SELECT * FROM train_labels WHERE label = 'c2' "
            "UNION ALL SELECT * FROM calibration_labels"
        )
        con.execute(
            "CREATE TABLE all_tokens AS SELECT * FROM train_tokens "
            "UNION ALL SELECT * FROM calibration_tokens"
        )
    args = ("--model", "b", "--kind", kind, "--tokens", "all_tokens")
    sqlnb("train", path, *args, "--labels", "first_labels", "--class-weight", "balanced")
    sqlnb("train", path, "--model", "b", "--tokens", "all_tokens", "--labels", "second_labels",
          "--append")  # fmt: skip
    vocab = sorted(frame(path, "SELECT DISTINCT word FROM all_tokens")["word"])
    parts = [matrix(path, p, vocab) for p in ("train", "calibration", "held_out")]
    x = sp.vstack([parts[0][0], parts[1][0]])
    y = np.concatenate([parts[0][1], parts[1][1]])
    nb = {"multinomial": MultinomialNB, "bernoulli": BernoulliNB, "complement": ComplementNB}
    reference = nb[kind]().fit(x, y, sample_weight=compute_sample_weight("balanced", y))
    got = proba(path, "--model", "b", "--tokens", "held_out_tokens")
    assert np.abs(got - reference.predict_proba(parts[2][0])).max() < 1e-9
    shown = json.loads(sqlnb("show", path, "--model", "b", "--json").stdout)
    sizes = shown["hyperparameters"]["class_sizes"]
    assert sizes == {c: int((y == c).sum()) for c in ("c0", "c1", "c2")}


def test_balanced_append_of_a_gaussian_table(cancer_db, tmp_path):
    path = tmp_path / "g.duckdb"
    path.write_bytes(cancer_db.read_bytes())
    sqlnb("train", path, "--model", "g", "--table", "train", "--class-weight", "balanced")
    sqlnb("train", path, "--model", "g", "--table", "calibration", "--append")
    x = np.vstack([cancer(path, "train")[0], cancer(path, "calibration")[0]])
    y = np.concatenate([cancer(path, "train")[1], cancer(path, "calibration")[1]])
    reference = GaussianNB().fit(x, y, sample_weight=compute_sample_weight("balanced", y))
    got = proba(path, "--model", "g", "--table", "held_out")
    assert np.abs(got - reference.predict_proba(cancer(path, "held_out")[0])).max() < 1e-9


# --- calibration -----------------------------------------------------------------------------


def temperature(jll: np.ndarray, y: np.ndarray) -> float:
    """The T of least log-loss of softmax(jll / T), by a bounded scalar search."""
    rows = np.arange(len(y))

    def loss(t: float) -> float:
        return float(-log_softmax(jll / t, axis=1)[rows, y].mean())

    return float(
        minimize_scalar(loss, bounds=(1e-3, 1e3), method="bounded", options={"xatol": 1e-10}).x
    )


@pytest.fixture(scope="module")
def text_model(text_db) -> MultinomialNB:
    sqlnb("train", text_db, "--model", "m", "--tokens", "train_tokens", "--labels", "train_labels")
    x, y, _ = text_data(text_db)["train"]
    return MultinomialNB().fit(x, y)


TEXT_ARGS = ("--model", "m", "--tokens", "calibration_tokens", "--labels", "calibration_labels")


def test_temperature_is_the_log_loss_minimiser_and_keeps_labels(text_db, text_model):
    data = text_data(text_db)
    xc, yc, _ = data["calibration"]
    y_index = np.searchsorted(text_model.classes_, yc)
    t = temperature(text_model.predict_joint_log_proba(xc), y_index)
    raw = proba(text_db, "--model", "m", "--tokens", "held_out_tokens")
    done = sqlnb("calibrate", text_db, *TEXT_ARGS)
    assert f"T = {t:.4g}"[:8] in done.stdout
    got = proba(text_db, "--model", "m", "--tokens", "held_out_tokens")
    want = np.exp(log_softmax(text_model.predict_joint_log_proba(data["held_out"][0]) / t, 1))
    assert np.abs(got - want).max() < 1e-6  # the search's own tolerance
    assert (got.argmax(1) == raw.argmax(1)).all()
    stored = frame(text_db, "SELECT DISTINCT a FROM sqlnb_calibration WHERE model = 'm'")
    assert stored["a"].to_numpy()[0] == pytest.approx(t, rel=1e-7)
    uncalibrated = proba(text_db, "--model", "m", "--tokens", "held_out_tokens", "--uncalibrated")
    # the raw model's probabilities: two predictions of one model agree to the last digits that
    # DuckDB's parallel sums keep (their order of additions may differ between runs: 3.6e-15 seen)
    assert np.abs(uncalibrated - raw).max() < 1e-12


@pytest.mark.parametrize("method, tolerance", [("sigmoid", 1e-4), ("isotonic", 1e-6)])
def test_one_vs_rest_equals_calibrated_classifier_cv(text_db, text_model, method, tolerance):
    data = text_data(text_db)
    reference = CalibratedClassifierCV(FrozenEstimator(text_model), method=method)
    reference.fit(*data["calibration"][:2])
    sqlnb("calibrate", text_db, *TEXT_ARGS, "--method", method)
    got = proba(text_db, "--model", "m", "--tokens", "held_out_tokens")
    assert np.abs(got - reference.predict_proba(data["held_out"][0])).max() < tolerance
    sqlnb(
        "predict",
        text_db,
        "--model",
        "m",
        "--tokens",
        "held_out_tokens",
        "--output",
        "labels",
        "--replace",
    )
    labels = frame(text_db, "SELECT label FROM labels ORDER BY doc_id")["label"]
    assert (labels.to_numpy() == reference.predict(data["held_out"][0])).all()


@pytest.mark.parametrize("method", ["temperature", "sigmoid", "isotonic"])
def test_binary_calibration_of_a_real_table(cancer_db, method):
    x, y = cancer(cancer_db, "train")
    nb = GaussianNB().fit(x, y)
    xc, yc = cancer(cancer_db, "calibration")
    xh, _ = cancer(cancer_db, "held_out")
    sqlnb("train", cancer_db, "--model", "g0", "--table", "train")
    sqlnb("calibrate", cancer_db, "--model", "g0", "--table", "calibration", "--method", method)
    got = proba(cancer_db, "--model", "g0", "--table", "held_out")
    if method == "temperature":
        t = temperature(nb.predict_joint_log_proba(xc), np.searchsorted(nb.classes_, yc))
        want = np.exp(log_softmax(nb.predict_joint_log_proba(xh) / t, axis=1))
        tolerance = 1e-5
    else:
        want = CalibratedClassifierCV(FrozenEstimator(nb), method=method).fit(xc, yc)
        want = want.predict_proba(xh)
        tolerance = 1e-4 if method == "sigmoid" else 1e-6
    assert np.abs(got - want).max() < tolerance


def test_calibration_is_stored_shown_moved_and_dropped(text_db, tmp_path):
    # the data alone, without the models other tests added to text_db. The moved model's
    # rows sit in another order in their tables, and DuckDB's threads sum a document's terms
    # in an order of their own: the probabilities may differ in the last bits (2.2e-16 seen
    # in CI), as tests/test_versions.py allows for rows moved between keys
    path = tmp_path / "c.duckdb"
    path.write_bytes((text_db.parent / "data.duckdb").read_bytes())
    sqlnb("train", path, "--model", "c", "--tokens", "train_tokens", "--labels", "train_labels")
    sqlnb(
        "calibrate",
        path,
        "--model",
        "c",
        "--tokens",
        "calibration_tokens",
        "--labels",
        "calibration_labels",
        "--method",
        "sigmoid",
    )
    assert "calibrated by sigmoid" in sqlnb("show", path, "--model", "c").stdout
    shown = json.loads(sqlnb("show", path, "--model", "c", "--json").stdout)
    assert {r["method"] for r in shown["calibration"]} == {"sigmoid"}
    calibrated = proba(path, "--model", "c", "--tokens", "held_out_tokens")
    sqlnb("export", path, "--model", "c", "--output", tmp_path / "c_model")
    other = tmp_path / "other.duckdb"
    sqlnb("import", other, tmp_path / "c_model")
    with duckdb.connect(str(other)) as con:
        con.execute(f"ATTACH '{path}' AS src (READ_ONLY)")
        con.execute("CREATE TABLE held_out_tokens AS SELECT * FROM src.held_out_tokens")
    moved = proba(other, "--model", "c", "--tokens", "held_out_tokens")
    assert np.abs(moved - calibrated).max() <= 1e-12
    done = sqlnb("retune", path, "--model", "c", "--alpha", "0.5")
    assert "its sigmoid calibration was dropped" in done.stdout
    assert frame(path, "SELECT COUNT(*) AS n FROM sqlnb_calibration WHERE model = 'c'")["n"][0] == 0
    sqlnb(
        "calibrate",
        path,
        "--model",
        "c",
        "--tokens",
        "calibration_tokens",
        "--labels",
        "calibration_labels",
    )
    done = sqlnb(
        "train",
        path,
        "--model",
        "c",
        "--tokens",
        "calibration_tokens",
        "--labels",
        "calibration_labels",
        "--append",
    )
    assert "its temperature calibration was dropped" in done.stdout
    sqlnb(
        "calibrate",
        path,
        "--model",
        "c",
        "--tokens",
        "calibration_tokens",
        "--labels",
        "calibration_labels",
    )
    sqlnb("calibrate", path, "--model", "c", "--method", "none")
    assert "calibrated" not in sqlnb("show", path, "--model", "c").stdout
    sqlnb(
        "calibrate",
        path,
        "--model",
        "c",
        "--tokens",
        "calibration_tokens",
        "--labels",
        "calibration_labels",
    )
    sqlnb("drop", path, "--model", "c")
    gone = frame(path, "SELECT COUNT(*) AS n FROM sqlnb_calibration WHERE model = 'c'")
    assert gone["n"][0] == 0


def test_bad_calibration_data_is_refused(text_db, tmp_path):
    path = tmp_path / "b.duckdb"
    path.write_bytes(text_db.read_bytes())
    sqlnb("train", path, "--model", "b", "--tokens", "train_tokens", "--labels", "train_labels")
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE strange AS SELECT doc_id, 'c7' AS label FROM calibration_labels")
        con.execute("CREATE TABLE nothing AS SELECT * FROM calibration_labels WHERE false")
    before = snapshot(path)
    for labels, method, message in [
        ("strange", "temperature", "has label 'c7', which model 'b' does not know"),
        ("nothing", "temperature", "labels table 'nothing' is empty"),
        ("calibration_labels", "platt", "--method must be one of"),
    ]:
        done = sqlnb(
            "calibrate",
            path,
            "--model",
            "b",
            "--tokens",
            "calibration_tokens",
            "--labels",
            labels,
            "--method",
            method,
            ok=False,
        )
        assert done.returncode == 1 and message in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        assert snapshot(path) == before


# --- calibration measures --------------------------------------------------------------------


def test_evaluate_ece_and_brier_equal_numpy(text_db, text_model):
    sqlnb("calibrate", text_db, "--model", "m", "--method", "none")
    result = json.loads(
        sqlnb(
            "evaluate",
            text_db,
            "--model",
            "m",
            "--tokens",
            "held_out_tokens",
            "--labels",
            "held_out_labels",
            "--json",
        ).stdout
    )
    x, y, _ = text_data(text_db)["held_out"]
    p = text_model.predict_proba(x)
    truth = (text_model.classes_[None, :] == y[:, None]).astype(float)
    assert result["brier"] == pytest.approx(np.mean(((p - truth) ** 2).sum(1)), abs=1e-12)
    confidence = p.max(1)
    correct = text_model.classes_[p.argmax(1)] == y
    bins = np.ceil(confidence * 15).astype(int)
    ece = sum(
        (bins == b).sum() / len(y) * abs(correct[bins == b].mean() - confidence[bins == b].mean())
        for b in np.unique(bins)
    )
    assert result["ece"] == pytest.approx(ece, abs=1e-12)


# --- costs and priors ------------------------------------------------------------------------


def test_costs_pick_the_least_expected_cost(text_db, text_model):
    costs = np.array([[0, 1, 4], [2, 0, 1], [20, 10, 0]], dtype=float)
    labels = list(text_model.classes_)
    with duckdb.connect(str(text_db)) as con:
        rows = [(a, b, costs[i, j]) for i, a in enumerate(labels) for j, b in enumerate(labels)]
        con.execute("CREATE OR REPLACE TABLE costs (actual TEXT, predicted TEXT, cost DOUBLE)")
        con.executemany("INSERT INTO costs VALUES (?, ?, ?)", rows)
        con.execute("CREATE OR REPLACE TABLE partial AS SELECT * FROM costs LIMIT 8")
        con.execute(
            "CREATE OR REPLACE TABLE negative AS SELECT actual, predicted, "
            "cost - 1 AS cost FROM costs"
        )
    sqlnb("calibrate", text_db, "--model", "m", "--method", "none")
    sqlnb(
        "predict",
        text_db,
        "--model",
        "m",
        "--tokens",
        "held_out_tokens",
        "--costs",
        "costs",
        "--output",
        "decided",
        "--replace",
    )
    got = frame(text_db, "SELECT * FROM decided ORDER BY doc_id")
    x, _, _ = text_data(text_db)["held_out"]
    p = text_model.predict_proba(x)
    expected = p @ costs
    assert (got["label"].to_numpy() == np.array(labels)[expected.argmin(1)]).all()
    assert np.abs(got["expected_cost"].to_numpy() - expected.min(1)).max() < 1e-9
    assert np.abs(got["proba"].to_numpy() - p[np.arange(len(p)), expected.argmin(1)]).max() < 1e-9
    # classify --costs writes the same labels into the user's own table
    with duckdb.connect(str(text_db)) as con:
        con.execute(
            "CREATE OR REPLACE TABLE mine AS SELECT DISTINCT doc_id AS id FROM held_out_tokens"
        )
    sqlnb(
        "classify",
        text_db,
        "--model",
        "m",
        "--update",
        "mine",
        "--tokens",
        "held_out_tokens",
        "--into",
        "label",
        "--proba-into",
        "p",
        "--costs",
        "costs",
    )
    mine = frame(text_db, "SELECT id, label, p FROM mine ORDER BY id")
    assert (mine["label"].to_numpy() == got["label"].to_numpy()).all()
    assert np.abs(mine["p"].to_numpy() - got["proba"].to_numpy()).max() < 1e-12
    for table, message in [
        ("partial", "has no cost of predicting"),
        ("negative", "not a finite number >= 0"),
    ]:
        done = sqlnb(
            "predict",
            text_db,
            "--model",
            "m",
            "--tokens",
            "held_out_tokens",
            "--costs",
            table,
            ok=False,
        )
        assert done.returncode == 1 and message in done.stderr, done.stderr


def em_priors(p: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """Saerens et al. 2002, in numpy."""
    new = prior.copy()
    for _ in range(1000):
        adjusted = p * new / prior
        adjusted /= adjusted.sum(1, keepdims=True)
        estimate = adjusted.mean(0)
        done = np.abs(estimate - new).max() < 1e-9
        new = estimate
        if done:
            break
    return new


def test_new_priors_given_and_estimated_on_a_shifted_sample(text_db, text_model):
    sqlnb("calibrate", text_db, "--model", "m", "--method", "none")
    x, y, docs = text_data(text_db)["held_out"]
    # a label-shifted sample: every c2 document, a fifth of the c0 documents
    keep = [
        d
        for i, d in enumerate(docs)
        if y[i] == "c2" or (y[i] == "c0" and i % 5 == 0) or y[i] == "c1"
    ]
    with duckdb.connect(str(text_db)) as con:
        con.execute(
            "CREATE OR REPLACE TABLE shifted AS SELECT * FROM held_out_tokens "
            f"WHERE doc_id IN ({', '.join(map(str, keep))})"
        )
    rows = [i for i, d in enumerate(docs) if d in set(keep)]
    p = text_model.predict_proba(x[rows])
    prior = np.exp(text_model.class_log_prior_)
    done = sqlnb(
        "predict",
        text_db,
        "--model",
        "m",
        "--tokens",
        "shifted",
        "--priors",
        "estimate",
        "--proba",
        "--output",
        "shifted_out",
        "--replace",
    )
    estimated = em_priors(p, prior)
    printed = dict(part.split("=") for part in done.stderr.split(": ", 1)[1].strip().split(", "))
    assert np.allclose([float(printed[c]) for c in text_model.classes_], estimated, atol=1e-6)
    got = frame(text_db, "SELECT proba FROM shifted_out ORDER BY doc_id, label")["proba"]
    want = p * estimated / prior
    want /= want.sum(1, keepdims=True)
    assert np.abs(got.to_numpy().reshape(len(rows), -1) - want).max() < 1e-8
    given = np.array([0.2, 0.3, 0.5])
    got = proba(text_db, "--model", "m", "--tokens", "shifted", "--priors", "c0=0.2,c1=0.3,c2=0.5")
    want = p * given / prior
    want /= want.sum(1, keepdims=True)
    assert np.abs(got - want).max() < 1e-12
    done = sqlnb(
        "predict",
        text_db,
        "--model",
        "m",
        "--tokens",
        "shifted",
        "--priors",
        "c0=0.2,c1=0.3",
        ok=False,
    )
    assert done.returncode == 1 and "does not name class 'c2'" in done.stderr
    done = sqlnb(
        "predict",
        text_db,
        "--model",
        "m",
        "--tokens",
        "shifted",
        "--priors",
        "c0=0.2,c1=0.3,c2=0.6",
        ok=False,
    )
    assert done.returncode == 1 and "sums to 1.1, not 1" in done.stderr
    done = sqlnb("predict", text_db, "--model", "m", "--tokens", "shifted", "--priors",
                 "c0=0.5,c0=0.5", ok=False)  # fmt: skip
    assert done.returncode == 1 and "--priors: names class 'c0' twice" in done.stderr
    assert math.isclose(estimated.sum(), 1)


def test_report_draws_reliability_before_and_after(cancer_db, tmp_path):
    sqlnb("train", cancer_db, "--model", "r", "--table", "train")
    sqlnb("calibrate", cancer_db, "--model", "r", "--table", "calibration", "--method", "sigmoid")
    page = tmp_path / "r.html"
    sqlnb("report", cancer_db, "--model", "r", "--table", "held_out", "--output", page)
    html = page.read_text(encoding="utf-8")
    assert "before calibration" in html and "after (sigmoid)" in html
    assert 'aria-label="reliability diagram before calibration"' in html
    assert 'aria-label="reliability diagram after (sigmoid)"' in html
    raw = json.loads(
        sqlnb("evaluate", cancer_db, "--model", "r", "--table", "held_out", "--json").stdout
    )
    sqlnb("calibrate", cancer_db, "--model", "r", "--method", "none")
    own = json.loads(
        sqlnb("evaluate", cancer_db, "--model", "r", "--table", "held_out", "--json").stdout
    )
    assert raw["log_loss"] != own["log_loss"]
    assert f"{own['log_loss']:.4f}" in html and f"{raw['log_loss']:.4f}" in html


# --- found by review: near-certain posteriors, ties, raw priors, empty sets ------------------


def test_long_documents_posteriors_and_isotonic_equal_scikit_learn(tmp_path):
    """Long documents (600 to 1,500 words) put the largest joint log-likelihoods near -4,500,
    where posteriors within 1e-12 of 1 are common and an isotonic fit's thresholds depend on
    their last digits (on BBC news, subtracting ln(total) after top rather than top + ln(total)
    as scikit-learn does moved one by 5.7e-4)."""
    rng = np.random.default_rng(1)
    vocab = 300
    base = 1.0 / np.arange(1, vocab + 1)
    rates = np.array([base * np.exp(0.2 * rng.standard_normal(vocab)) for _ in range(5)])
    rates /= rates.sum(1, keepdims=True)
    rows = []
    for doc in range(600):
        counts = rng.multinomial(int(rng.integers(600, 1500)), rates[doc % 5])
        part = ("train", "calibration", "held_out")[doc % 3]
        rows += [(doc, f"w{w}", int(k), f"c{doc % 5}", part) for w, k in enumerate(counts) if k]
    corpus = pd.DataFrame(rows, columns=["doc_id", "word", "count", "label", "part"])
    path = tmp_path / "long.duckdb"
    with duckdb.connect(str(path)) as con:
        con.register("corpus", corpus)
        for part in ("train", "calibration", "held_out"):
            con.execute(
                f"CREATE TABLE {part}_tokens AS SELECT doc_id, word, count FROM corpus "
                f"WHERE part = '{part}'"
            )
            con.execute(
                f"CREATE TABLE {part}_labels AS SELECT DISTINCT doc_id, label FROM corpus "
                f"WHERE part = '{part}'"
            )
    data = text_data(path)
    nb = MultinomialNB().fit(*data["train"][:2])
    sqlnb("train", path, "--model", "m", "--tokens", "train_tokens", "--labels", "train_labels")
    raw = proba(path, "--model", "m", "--tokens", "held_out_tokens")
    assert np.abs(raw - nb.predict_proba(data["held_out"][0])).max() < 1e-12
    sqlnb("calibrate", path, *TEXT_ARGS, "--method", "isotonic")
    xc, yc, _ = data["calibration"]
    want = (
        CalibratedClassifierCV(FrozenEstimator(nb), method="isotonic")
        .fit(xc, yc)
        .predict_proba(data["held_out"][0])
    )
    got = proba(path, "--model", "m", "--tokens", "held_out_tokens")
    assert np.abs(got - want).max() < 1e-6


def test_equal_costs_go_to_the_first_label_and_classify_writes_them(text_db, text_model):
    labels = list(text_model.classes_)
    with duckdb.connect(str(text_db)) as con:
        con.execute("CREATE OR REPLACE TABLE flat (actual TEXT, predicted TEXT, cost DOUBLE)")
        con.executemany(
            "INSERT INTO flat VALUES (?, ?, 0.1)", [(a, b) for a in labels for b in labels]
        )
        con.execute(
            "CREATE OR REPLACE TABLE mine AS SELECT DISTINCT doc_id AS id FROM held_out_tokens"
        )
    sqlnb("calibrate", text_db, *TEXT_ARGS, "--method", "sigmoid")
    args = ("--model", "m", "--tokens", "held_out_tokens", "--costs", "flat")
    sqlnb("predict", text_db, *args, "--output", "flat_out", "--replace")
    got = frame(text_db, "SELECT label, expected_cost FROM flat_out")
    assert set(got["label"]) == {labels[0]}  # every expected cost is 0.1: a tie
    assert np.abs(got["expected_cost"].to_numpy() - 0.1).max() < 1e-12
    sqlnb("classify", text_db, "--update", "mine", "--into", "label", "--cost-into", "cost", *args)
    mine = frame(text_db, "SELECT label, cost FROM mine")
    assert set(mine["label"]) == {labels[0]} and np.abs(mine["cost"] - 0.1).max() < 1e-12
    done = sqlnb(
        "classify",
        text_db,
        "--model",
        "m",
        "--update",
        "mine",
        "--tokens",
        "held_out_tokens",
        "--into",
        "label",
        "--cost-into",
        "cost",
        ok=False,
    )
    assert done.returncode == 1 and "needs --costs" in done.stderr
    sqlnb("calibrate", text_db, "--model", "m", "--method", "none")


def test_uncalibrated_priors_are_estimated_on_the_raw_posteriors(text_db, text_model):
    x, _, _ = text_data(text_db)["held_out"]
    sqlnb("calibrate", text_db, *TEXT_ARGS)  # temperature: it changes every posterior
    args = ("--model", "m", "--tokens", "held_out_tokens", "--priors", "estimate", "--proba")
    done = sqlnb("predict", text_db, *args, "--uncalibrated", "--output", "raw", "--replace")
    p = text_model.predict_proba(x)
    prior = np.exp(text_model.class_log_prior_)
    estimated = em_priors(p, prior)
    printed = dict(part.split("=") for part in done.stderr.split(": ", 1)[1].strip().split(", "))
    assert np.allclose([float(printed[c]) for c in text_model.classes_], estimated, atol=1e-6)
    got = frame(text_db, "SELECT proba FROM raw ORDER BY doc_id, label")["proba"].to_numpy()
    want = p * estimated / prior
    want /= want.sum(1, keepdims=True)
    assert np.abs(got.reshape(len(p), -1) - want).max() < 1e-8
    sqlnb("calibrate", text_db, "--model", "m", "--method", "none")


def test_an_empty_calibration_set_is_refused(text_db, tmp_path):
    path = tmp_path / "e.duckdb"
    path.write_bytes(text_db.read_bytes())
    sqlnb("train", path, "--model", "e", "--tokens", "train_tokens", "--labels", "train_labels")
    sqlnb("calibrate", path, "--model", "e", "--tokens", "calibration_tokens", "--labels",
          "calibration_labels", "--method", "sigmoid")  # fmt: skip
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE no_tokens AS SELECT * FROM calibration_tokens WHERE false")
        con.execute(
            "CREATE TABLE others AS SELECT doc_id + 100000 AS doc_id, label FROM calibration_labels"
        )
        con.execute("CREATE TABLE no_labels AS SELECT * FROM calibration_labels WHERE false")
    before = snapshot(path)
    done = sqlnb("calibrate", path, "--model", "e", "--tokens", "calibration_tokens", "--labels",
                 "no_labels", ok=False)  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "labels table 'no_labels' is empty: nothing to calibrate on" in done.stderr
    for tokens, labels in (("no_tokens", "calibration_labels"), ("calibration_tokens", "others")):
        done = sqlnb("calibrate", path, "--model", "e", "--tokens", tokens, "--labels", labels,
                     ok=False)  # fmt: skip
        assert done.returncode == 1 and "an empty calibration set" in done.stderr, done.stderr
        assert snapshot(path) == before  # the sigmoid calibration is still there


@pytest.mark.parametrize("weights", ["balanced", "k0=1,k1=2.5,k2=6"])
def test_class_weights_for_categorical_and_mixed_tables(tmp_path, weights):
    """Categorical: scikit-learn's CategoricalNB with the sample weights; mixed: the sum of a
    weighted GaussianNB's and CategoricalNB's joint log-likelihoods, normalised."""
    from sklearn.naive_bayes import CategoricalNB

    rng = np.random.default_rng(8)
    n = 400
    y = rng.choice(3, size=n, p=[0.6, 0.3, 0.1])
    frame_ = pd.DataFrame(
        {
            "id": np.arange(n),
            "a": rng.normal(size=n) * 2 + y,
            "c": [f"v{v}" for v in (rng.integers(0, 3, n) + y) % 4],
            "d": [f"u{v}" for v in (rng.integers(0, 2, n) * y) % 3],
            "label": [f"k{v}" for v in y],
        }
    )
    path = tmp_path / "cat.duckdb"
    with duckdb.connect(str(path)) as con:
        con.register("f", frame_)
        con.execute("CREATE TABLE t AS SELECT * FROM f")
    given = weights if weights == "balanced" else {"k0": 1, "k1": 2.5, "k2": 6}
    w = compute_sample_weight(given, frame_["label"])
    codes = np.column_stack([frame_[c].str[1:].astype(int) for c in ("c", "d")])
    categorical = CategoricalNB().fit(codes, frame_["label"], sample_weight=w)
    sqlnb("train", path, "--model", "c", "--kind", "categorical", "--table", "t", "--features",
          "c,d", "--class-weight", weights)  # fmt: skip
    got = proba(path, "--model", "c", "--table", "t")
    assert np.abs(got - categorical.predict_proba(codes)).max() < 1e-9
    gaussian = GaussianNB().fit(frame_[["a"]], frame_["label"], sample_weight=w)
    sqlnb("train", path, "--model", "m", "--kind", "mixed", "--table", "t", "--class-weight",
          weights)  # fmt: skip
    jll = (
        gaussian.predict_joint_log_proba(frame_[["a"]])
        + categorical.predict_joint_log_proba(codes)
        - categorical.class_log_prior_
    )
    got = proba(path, "--model", "m", "--table", "t")
    assert np.abs(got - np.exp(log_softmax(jll, axis=1))).max() < 1e-9


def test_bad_cost_tables_are_refused_with_the_database_unchanged(text_db, tmp_path, text_model):
    path = tmp_path / "costs.duckdb"
    path.write_bytes(text_db.read_bytes())
    labels = list(text_model.classes_)
    pairs = [(a, b, 1.0 if a != b else 0.0) for a in labels for b in labels]
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE c (actual TEXT, predicted TEXT, cost DOUBLE)")
        con.executemany("INSERT INTO c VALUES (?, ?, ?)", pairs)
        con.execute("CREATE TABLE unknown AS SELECT * FROM c UNION ALL SELECT 'c9', 'c0', 1")
        con.execute("CREATE TABLE twice AS SELECT * FROM c UNION ALL SELECT 'c0', 'c1', 2")
        con.execute(
            "CREATE TABLE nulls AS SELECT actual, predicted, NULLIF(cost, 1) AS cost FROM c"
        )
        con.execute("CREATE TABLE columns AS SELECT actual, predicted, cost AS price FROM c")
        con.execute(  # '1.0' would cast, 'abc' would not: text is refused either way
            "CREATE TABLE texts AS SELECT actual, predicted, CAST(cost AS TEXT) AS cost FROM c"
        )
        con.execute(
            "CREATE OR REPLACE TABLE mine AS SELECT DISTINCT doc_id AS id FROM held_out_tokens"
        )
    before = snapshot(path)
    for table, message in [
        ("unknown", "names label 'c9', which model 'm' does not know"),
        ("twice", "gives two costs of predicting 'c1' for 'c0'"),
        ("nulls", "is NULL, not a finite number >= 0"),
        ("columns", "cost"),
        ("texts", "column 'cost' of 'texts' holds text (VARCHAR): costs must be numbers"),
    ]:
        for command in ("predict", "classify"):
            extra = ("--update", "mine", "--into", "label") if command == "classify" else ()
            done = sqlnb(command, path, "--model", "m", "--tokens", "held_out_tokens",
                         "--costs", table, *extra, ok=False)  # fmt: skip
            assert done.returncode == 1 and message in done.stderr, done.stderr
            assert len(done.stderr.strip().splitlines()) == 1
            assert snapshot(path) == before


@pytest.fixture(scope="module")
def reviews_db(tmp_path_factory) -> Path:
    """The bundled fine-food reviews (real text, 65 : 35): train, calibration and held-out
    parts of the dataset's test split, tokenized by sqlnb."""
    from sqlnb.demo import DATA

    path = tmp_path_factory.mktemp("reviews") / "r.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute(f"CREATE TABLE reviews AS SELECT * FROM read_parquet('{DATA}')")
        con.execute("CREATE TABLE train AS SELECT * FROM reviews WHERE split = 'train'")
        for part, r in (("calibration", 0), ("held_out", 1)):
            con.execute(
                f"CREATE TABLE {part} AS SELECT * FROM reviews "
                f"WHERE split = 'test' AND doc_id % 2 = {r}"
            )
    sqlnb("train", path, "--model", "r", "--docs", "train")
    for part in ("train", "calibration", "held_out"):
        sqlnb("tokenize", path, "--docs", part, "--output", f"{part}_tokens")
        with duckdb.connect(str(path)) as con:
            con.execute(f"CREATE TABLE {part}_labels AS SELECT doc_id, label FROM {part}")
    return path


@pytest.mark.parametrize("method, tolerance", [("sigmoid", 1e-4), ("isotonic", 1e-6)])
def test_calibrating_real_reviews_equals_scikit_learn(reviews_db, method, tolerance):
    data = text_data(reviews_db)
    nb = MultinomialNB().fit(*data["train"][:2])
    sqlnb("calibrate", reviews_db, "--model", "r", "--docs", "calibration", "--method", method)
    xc, yc, _ = data["calibration"]
    want = (
        CalibratedClassifierCV(FrozenEstimator(nb), method=method)
        .fit(xc, yc)
        .predict_proba(data["held_out"][0])
    )
    got = proba(reviews_db, "--model", "r", "--docs", "held_out")
    assert np.abs(got - want).max() < tolerance
    sqlnb("calibrate", reviews_db, "--model", "r", "--method", "none")
