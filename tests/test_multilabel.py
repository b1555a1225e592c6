"""Multi-label classification (issue 39): ``train --multi-label`` is scikit-learn's
``OneVsRestClassifier`` around MultinomialNB, BernoulliNB and ComplementNB on
``MultiLabelBinarizer`` targets (probabilities to 1e-9, over sqlnb's own tokens), from a tokens
table and from raw text; predict keeps the labels at or above the threshold; evaluate's metrics
are scikit-learn's; without the flag a document with two labels is refused, naming
--multi-label, and the database is unchanged."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest
from cli import run
from sklearn.metrics import accuracy_score, f1_score, hamming_loss
from sklearn.multiclass import OneVsRestClassifier
from sklearn.naive_bayes import BernoulliNB, ComplementNB, MultinomialNB
from sklearn.preprocessing import MultiLabelBinarizer

TOPICS = {
    "billing": "invoice refund charge payment card",
    "urgent": "asap now critical immediately outage",
    "bug": "crash error fail broken stack",
    "feature": "add wish idea would request",
    "account": "login password user profile email",
}
NOISE = ["the", "a", "of", "please", "team", "hello", "thanks"]


def corpus(seed: int, n: int, start: int) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(docs, labels): one to three labels per document; words of its labels, of others and
    noise, so that the probabilities are far from 0 and 1 and some labels are missed."""
    rng = random.Random(seed)
    every = " ".join(TOPICS.values()).split()
    docs, labels = [], []
    for doc_id in range(start, start + n):
        chosen = rng.sample(sorted(TOPICS), rng.choice([1, 1, 2, 2, 3]))
        words = [rng.choice(TOPICS[t].split()) for t in chosen for _ in range(rng.randint(1, 2))]
        words += [rng.choice(every) for _ in range(rng.randint(0, 3))]
        words += [rng.choice(NOISE) for _ in range(rng.randint(1, 3))]
        rng.shuffle(words)
        docs.append((doc_id, " ".join(words)))
        labels += [(doc_id, t) for t in chosen]
    return docs, labels


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("multilabel") / "m.duckdb"
    with duckdb.connect(str(path)) as con:
        for name, seed, n, start in (("train", 1, 300, 0), ("test", 2, 150, 1000)):
            docs, labels = corpus(seed, n, start)
            con.execute(f"CREATE TABLE {name}_docs (doc_id INTEGER, text VARCHAR)")
            con.executemany(f"INSERT INTO {name}_docs VALUES (?, ?)", docs)
            con.execute(f"CREATE TABLE {name}_labels (doc_id INTEGER, label VARCHAR)")
            con.executemany(f"INSERT INTO {name}_labels VALUES (?, ?)", labels)
    for name in ("train", "test"):
        run("tokenize", path, "--docs", f"{name}_docs", "--output", f"{name}_tokens", ok=True)
    return path


def rows(path: Path, query: str) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(path), read_only=True) as con:
        return con.execute(query).fetchall()


@functools.cache
def matrices(path: Path) -> tuple[Any, Any, Any, Any, list[str], list[int]]:
    """sqlnb's tokens as count matrices (training vocabulary), the labels as indicators: read
    once per database (the tests add models and tables, never change these; callers only read
    the arrays)."""
    vocabulary = [r[0] for r in rows(path, "SELECT DISTINCT word FROM train_tokens ORDER BY 1")]
    index = {w: i for i, w in enumerate(vocabulary)}
    found = []
    for name in ("train", "test"):
        ids = [r[0] for r in rows(path, f"SELECT doc_id FROM {name}_docs ORDER BY 1")]
        at = {d: i for i, d in enumerate(ids)}
        x = np.zeros((len(ids), len(vocabulary)))
        for d, w, c in rows(path, f"SELECT doc_id, word, count FROM {name}_tokens"):
            if w in index:
                x[at[d], index[w]] += c
        sets: dict[int, list[str]] = {d: [] for d in ids}
        for d, label in rows(path, f"SELECT doc_id, label FROM {name}_labels"):
            sets[d].append(label)
        found.append((x, [sets[d] for d in ids], ids))
    (x, y, _), (x_test, y_test, test_ids) = found
    binarizer = MultiLabelBinarizer(classes=sorted(TOPICS))
    labels = list(binarizer.classes)
    return x, binarizer.fit_transform(y), x_test, binarizer.transform(y_test), labels, test_ids


ESTIMATORS = {
    "multinomial": (MultinomialNB(alpha=0.5), ["--alpha", "0.5"]),
    "bernoulli": (BernoulliNB(alpha=0.7), ["--alpha", "0.7"]),
    "complement": (ComplementNB(alpha=1.0), []),
    "complement-norm": (ComplementNB(alpha=0.3, norm=True), ["--alpha", "0.3", "--norm"]),
}


def proba(path: Path, model: str, *source: str) -> dict[tuple[int, str], float]:
    source = source or ("--tokens", "test_tokens")
    run("predict", path, "-m", model, *source, "--proba", "-o", "p", "--replace", ok=True)
    return {(d, label): p for d, label, p in rows(path, "SELECT doc_id, label, proba FROM p")}


@pytest.mark.parametrize("name", ESTIMATORS)
def test_probabilities_are_one_vs_rest(db: Path, name: str) -> None:
    estimator, options = ESTIMATORS[name]
    kind = name.split("-")[0]
    model = f"ml_{name.replace('-', '_')}"
    run("train", db, "-m", model, "--kind", kind, "--tokens", "train_tokens", "--labels",
        "train_labels", "--multi-label", *options, ok=True)  # fmt: skip
    x, y, x_test, _, labels, ids = matrices(db)
    expected = OneVsRestClassifier(estimator).fit(x, y).predict_proba(x_test)
    got = proba(db, model)
    assert len(got) == len(ids) * len(labels)
    worst = max(abs(got[(d, k)] - expected[i, j]) for i, d in enumerate(ids)
                for j, k in enumerate(labels))  # fmt: skip
    assert worst < 1e-9
    assert 0.05 < expected.mean() < 0.95  # not all near 0 or 1


def test_raw_text_threshold_and_metrics(db: Path) -> None:
    """From raw text (tokenized in SQL as tokenize does); predict at the default threshold and
    at 0.3; evaluate at the stored threshold 0.4 against scikit-learn's metrics."""
    run("train", db, "-m", "text", "--docs", "train_docs", "--labels", "train_labels",
        "--multi-label", "--threshold", "0.4", ok=True)  # fmt: skip
    x, y, x_test, y_test, labels, ids = matrices(db)
    expected = OneVsRestClassifier(MultinomialNB()).fit(x, y).predict_proba(x_test)
    got = proba(db, "text", "--docs", "test_docs")
    assert max(abs(got[(d, k)] - expected[i, j]) for i, d in enumerate(ids)
               for j, k in enumerate(labels)) < 1e-9  # fmt: skip
    for threshold in (None, 0.3):
        extra = [] if threshold is None else ["--threshold", str(threshold)]
        run("predict", db, "-m", "text", "--docs", "test_docs", "-o", "kept", "--replace", *extra,
            ok=True)  # fmt: skip
        kept = {(d, k) for d, k in rows(db, "SELECT doc_id, label FROM kept")}
        t = 0.4 if threshold is None else threshold
        want = {(d, k) for i, d in enumerate(ids) for j, k in enumerate(labels)
                if expected[i, j] >= t}  # fmt: skip
        assert kept == want and 0 < len(kept) < len(ids) * len(labels)
    result = run("evaluate", db, "-m", "text", "--docs", "test_docs", "--labels", "test_labels",
                 "--json", ok=True)  # fmt: skip
    found = json.loads(result.stdout)
    predicted = (expected >= 0.4).astype(int)
    assert found["n_docs"] == len(ids)
    want_metrics = {
        "micro_f1": f1_score(y_test, predicted, average="micro"),
        "macro_f1": f1_score(y_test, predicted, average="macro"),
        "samples_f1": f1_score(y_test, predicted, average="samples"),
        "hamming_loss": hamming_loss(y_test, predicted),
        "subset_accuracy": accuracy_score(y_test, predicted),
    }
    for key, value in want_metrics.items():
        assert found[key] == pytest.approx(value, abs=1e-12), key
    assert 0 < found["subset_accuracy"] < 1
    per = f1_score(y_test, predicted, average=None)
    assert [found["per_label"][k]["f1"] for k in labels] == pytest.approx(list(per), abs=1e-12)
    shown = run("evaluate", db, "-m", "text", "--docs", "test_docs", "--labels", "test_labels",
                ok=True).stdout  # fmt: skip
    assert "micro-F1" in shown and "billing" in shown


def _fingerprint(path: Path) -> list[tuple[Any, ...]]:
    tables = [r[0] for r in rows(path, "SELECT table_name FROM information_schema.tables")]
    return sorted((t, rows(path, f'SELECT COUNT(*) FROM "{t}"')[0][0]) for t in tables)


def test_two_labels_without_the_flag_are_refused(db: Path) -> None:
    before = _fingerprint(db)
    result = run("train", db, "-m", "flat", "--tokens", "train_tokens", "--labels", "train_labels")
    assert result.returncode != 0
    message = result.stderr.strip()
    assert "two different labels" in message and "--multi-label" in message
    assert len(message.splitlines()) == 1
    assert _fingerprint(db) == before


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--kind", "gaussian"], "gaussian"),
        (["--idf", "smooth"], "document transform"),
        (["--class-weight", "balanced"], "--class-weight"),
        (["--threshold", "1.5"], "--threshold"),
    ],
)
def test_refusals_are_one_line(db: Path, extra: list[str], message: str) -> None:
    before = _fingerprint(db)
    result = run("train", db, "-m", "bad", "--tokens", "train_tokens", "--labels", "train_labels",
                 "--multi-label", *extra)  # fmt: skip
    assert result.returncode != 0 and message in result.stderr
    assert _fingerprint(db) == before


def test_threshold_needs_a_multi_label_model(db: Path) -> None:
    result = run("train", db, "-m", "flat", "--tokens", "train_tokens", "--labels", "train_labels",
                 "--threshold", "0.3")  # fmt: skip
    assert result.returncode != 0 and "--multi-label" in result.stderr


@pytest.fixture(scope="module")
def refusing(db: Path) -> str:
    """A multi-label model trained once for every refusal below (each leaves it unchanged)."""
    run("train", db, "-m", "ml_refuse", "--tokens", "train_tokens", "--labels", "train_labels",
        "--multi-label", ok=True)  # fmt: skip
    return "ml_refuse"


@pytest.mark.parametrize(
    "command",
    [
        ["calibrate", "--tokens", "test_tokens", "--labels", "test_labels"],
        ["retune", "--alpha", "2"],
        ["explain", "--tokens", "test_tokens"],
        ["train", "--multi-label", "--tokens", "train_tokens", "--unlabeled", "test_tokens"],
        ["predict", "--tokens", "test_tokens", "--priors", "estimate"],
    ],
    ids=lambda c: "-".join(c[:2]),
)
def test_what_a_multi_label_model_refuses(db: Path, refusing: str, command: list[str]) -> None:
    before = _fingerprint(db)
    result = run(command[0], db, "-m", refusing, *command[1:])
    assert result.returncode != 0
    assert "multi-label" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert _fingerprint(db) == before


def test_append_export_import_show_and_models(db: Path, tmp_path: Path) -> None:
    """Appending the second half of the documents gives the model trained on all of them
    (counts per label and totals add up); the model file carries it; show and models list it."""
    with duckdb.connect(str(db)) as con:
        for half, where in (("a", "doc_id < 150"), ("b", "doc_id >= 150")):
            con.execute(f"CREATE OR REPLACE TABLE half_{half} AS SELECT * FROM train_labels "
                        f"WHERE {where}")  # fmt: skip
    run("train", db, "-m", "whole", "--kind", "bernoulli", "--tokens", "train_tokens",
        "--labels", "train_labels", "--multi-label", ok=True)  # fmt: skip
    run("train", db, "-m", "grown", "--kind", "bernoulli", "--tokens", "train_tokens",
        "--labels", "half_a", "--multi-label", ok=True)  # fmt: skip
    run("train", db, "-m", "grown", "--append", "--tokens", "train_tokens", "--labels", "half_b",
        ok=True)  # fmt: skip
    whole, grown = proba(db, "whole"), proba(db, "grown")
    assert whole.keys() == grown.keys()
    assert max(abs(whole[k] - grown[k]) for k in whole) < 1e-12
    run("export", db, "-m", "grown", "-o", tmp_path / "file", ok=True)
    run("import", db, tmp_path / "file", "-m", "moved", ok=True)
    moved = proba(db, "moved")
    assert max(abs(whole[k] - moved[k]) for k in whole) < 1e-12
    shown = json.loads(run("show", db, "-m", "moved", "--json", ok=True).stdout)["hyperparameters"]
    assert shown["multi_label"] is True and shown["threshold"] == 0.5
    assert "moved" in run("models", db, ok=True).stdout
