"""Issue 34's lies: model files that lie, weights that leave no document, labels that hold a
terminal's escape sequences, and a cache folder that another user can write."""

from __future__ import annotations

import os
import pickle
import sqlite3
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest
from conftest import random_corpus
from typer.testing import CliRunner

from sqlnb import cache
from sqlnb.cli import app

runner = CliRunner()
CONTROL = ("\x1b", "\x07", "\x9b", "\r")


def cli(*args: str) -> tuple[int, str, str]:
    """The command in-process: exit code, stdout, stderr."""
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def one_line(code: int, err: str, *said: str) -> None:
    assert code == 1, err
    assert err.startswith("Error: ") and err.count("\n") == 1, err
    for words in said:
        assert words in err, err


def snapshot(path: Path) -> dict[str, list[str]]:
    """Every table's sorted rows (as tests/test_cli.py's snapshot)."""
    with duckdb.connect(str(path), read_only=True) as con:
        names = [
            r[0]
            for r in con.execute(
                "SELECT table_schema || '.' || table_name FROM information_schema.tables"
            ).fetchall()
        ]
        return {
            n: sorted(map(repr, con.execute(f"SELECT * FROM {n}").fetchall()))
            for n in sorted(names)
        }


# --- terminal escape sequences in labels and names ----------------------------------------------

ESCAPES = ["\x1b[2J", "\x1b]0;title\x07", "ok\x9b31m"]


@pytest.fixture
def escaping(tmp_path: Path) -> str:
    db = str(tmp_path / "esc.duckdb")
    with duckdb.connect(db) as con:
        con.execute(
            "CREATE TABLE tokens AS SELECT * FROM (VALUES (1, 'a', 1), (2, 'b', 1), (3, 'c', 2), "
            "(4, 'a\x1b[1m', 1)) t(doc_id, word, count)"
        )
        con.execute("CREATE TABLE labels (doc_id INTEGER, label VARCHAR)")
        con.executemany(
            "INSERT INTO labels VALUES (?, ?)", [(i + 1, label) for i, label in enumerate(ESCAPES)]
        )
        con.execute("INSERT INTO labels VALUES (4, ?)", [ESCAPES[0]])
    code, _, err = cli("train", db, "--model", "m\x1b[31m")
    assert code == 0, err
    return db


@pytest.mark.parametrize(
    "args",
    [
        ["models"],
        ["show", "--model", "m\x1b[31m"],
        ["show", "--model", "m\x1b[31m", "--top", "3"],
        ["predict", "--model", "m\x1b[31m", "--priors", "estimate", "--format", "table"],
        ["show", "--model", "nope\x07"],  # the error lists the models
        ["train", "--model", "m\x1b[31m"],
    ],
    ids=["models", "show", "show-top", "priors-estimate", "error", "train"],
)
def test_labels_and_names_are_printed_with_control_characters_escaped(escaping, args):
    code, out, err = cli(args[0], escaping, *args[1:])
    assert code in (0, 1), err
    for c in CONTROL:
        assert c not in out and c not in err, (out, err)
    shown = out + err
    assert "\\x1b" in shown  # escaped, not dropped
    if args[0] in ("models", "show") and code == 0:
        assert "\\x1b]0;title\\x07" in out and "ok\\x9b31m" in out
    if "estimate" in args:
        assert err.startswith("estimated priors: \\x1b[2J=")


def test_csv_in_a_pipe_keeps_the_labels_as_they_are(escaping):
    code, out, err = cli("predict", escaping, "--model", "m\x1b[31m", "--format", "csv")
    assert code == 0, err
    assert "ok\x9b31m" in out or "\x1b[2J" in out  # data, not a terminal: unchanged


# --- the cache: never read from a folder or entry others can write --------------------------------


class Evil:
    """A pickle that makes a folder when it is read: code run by unpickling."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.mkdir, (str(self.marker),)


@pytest.fixture
def cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("SQLNB_CACHE", str(folder))
    return folder


def _plant(folder: Path, key: str, marker: Path) -> Path:
    cache.store(key, "placeholder")
    (entry,) = folder.iterdir()
    entry.write_bytes(pickle.dumps(Evil(marker)))
    return entry


def test_the_cache_folder_and_its_entries_are_the_users_alone(cached: Path, tmp_path: Path):
    cache.store("k", ["SELECT 1"])
    assert cache.load("k") == ["SELECT 1"]
    assert oct(cached.stat().st_mode & 0o777) == "0o700"
    (entry,) = cached.iterdir()
    assert entry.stat().st_mode & 0o077 == 0


@pytest.mark.parametrize("writable", ["folder by group", "folder by others", "entry by others"])
def test_a_cache_that_others_may_write_is_never_unpickled(cached, tmp_path, writable):
    marker = tmp_path / "ran"
    entry = _plant(cached, "k", marker)
    if writable.startswith("folder"):
        cached.chmod(0o770 if "group" in writable else 0o707)
    else:
        entry.chmod(0o606)
    assert cache.load("k") is None
    assert not marker.exists()
    if writable.startswith("folder"):
        cache.store("other", [1])  # and nothing is written there either
        assert len(list(cached.iterdir())) == 1
    cached.chmod(0o700)
    entry.chmod(0o600)
    cache.load("k")  # the control: the same entry, ours alone, is read (and runs)
    assert marker.exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to chown")
@pytest.mark.parametrize("owned", ["folder", "entry"])
def test_a_cache_another_user_owns_is_never_unpickled(cached, tmp_path, owned):
    marker = tmp_path / "ran"
    entry = _plant(cached, "k", marker)
    os.chown(cached if owned == "folder" else entry, 65534, -1)
    assert cache.load("k") is None
    assert not marker.exists()


def test_a_cache_entry_that_is_a_link_is_not_followed(cached, tmp_path):
    marker = tmp_path / "ran"
    entry = _plant(cached, "k", marker)
    elsewhere = tmp_path / "elsewhere.pickle"
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)
    assert cache.load("k") is None
    assert not marker.exists()


# --- weights that leave no document ---------------------------------------------------------------

ZEROS = "class 00=0,class 01=0,class 02=0"
ZERO_WEIGHTS = {
    "class weights 0": (["train", "--model", "z", "--class-weight", ZEROS], "class weights"),
    "sample weights 0": (
        ["train", "--model", "z", "--labels", "zero", "--weight-column", "w"],
        "has sample weight 0",
    ),
    "both": (
        [
            "train",
            "--model",
            "z",
            "--labels",
            "half",
            "--weight-column",
            "w",
            "--class-weight",
            "class 00=0,class 01=0",
        ],
        "class weights",
    ),
    "retrain": (["train", "--model", "m", "--class-weight", ZEROS], "class weights"),
    "append": (
        ["train", "--append", "--model", "m", "--labels", "zero", "--weight-column", "w"],
        "leave no document to append",
    ),
    "append to weighted": (
        ["train", "--append", "--model", "w0", "--labels", "only00"],
        "class weights 'class 00=0'",
    ),
    "EM": (
        ["train", "--model", "z", "--class-weight", ZEROS, "--unlabeled", "test_tokens"],
        "class weights",
    ),
}


def _store(engine: str, tmp_path: Path) -> tuple[str, Callable[[], dict[str, list[str]]]]:
    """A database of the engine with a corpus (tokens, labels, test_tokens), labels whose
    sample weights are all 0 (zero), or 0 for class 02 only (half), the documents of class 00
    (only00), and trained models m and w0 (class 00 weighing 0); its URL and snapshot."""
    corpus = random_corpus(8, n_classes=3, vocab=80, n_train=60, n_test=20)
    labels = corpus.train_labels
    frames = {
        "tokens": corpus.train_tokens,
        "labels": labels,
        "test_tokens": corpus.test_tokens,
        "zero": labels.assign(w=0.0),
        "half": labels.assign(w=(labels["label"] != "class 02").astype(float)),
        "only00": labels[labels["label"] == "class 00"],
    }
    path = tmp_path / f"db.{engine}"
    if engine == "duckdb":
        url = str(path)
        with duckdb.connect(url) as con:
            for name, frame in frames.items():
                con.register("frame", frame)
                con.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")
                con.unregister("frame")

        def shot() -> dict[str, list[str]]:
            return snapshot(path)
    else:
        url = f"sqlite:///{path}"
        with sqlite3.connect(path) as con:
            for name, frame in frames.items():
                frame.to_sql(name, con, index=False)

        def shot() -> dict[str, list[str]]:
            with sqlite3.connect(path) as con:
                query = "SELECT name FROM sqlite_master WHERE type = 'table'"
                names = [r[0] for r in con.execute(query)]
                return {
                    n: sorted(map(repr, con.execute(f'SELECT * FROM "{n}"').fetchall()))
                    for n in sorted(names)
                }

    for args in (["--model", "m"], ["--model", "w0", "--class-weight", "class 00=0"]):
        code, _, err = cli("train", url, *args)
        assert code == 0, err
    return url, shot


@pytest.fixture(params=["duckdb", pytest.param("sqlite", marks=pytest.mark.sqlite)])
def weighed(request, tmp_path: Path) -> tuple[str, Callable[[], dict[str, list[str]]]]:
    return _store(request.param, tmp_path)


@pytest.mark.parametrize("case", list(ZERO_WEIGHTS))
def test_weights_that_leave_no_document_are_refused_in_one_line(weighed, case):
    url, shot = weighed
    args, said = ZERO_WEIGHTS[case]
    before = shot()
    code, _, err = cli(args[0], url, *args[1:])
    one_line(code, err, "every labeled document", "leave no document", said)
    assert shot() == before


def test_a_class_that_weighs_0_has_prior_0_and_is_never_predicted(con):
    """As scikit-learn: a class whose documents weigh 0 is a class of 0 documents, its log
    prior -inf (sqlnb: NULL, a prior of 0), its word probabilities alpha's alone; it is never
    predicted and its probability is 0, the others' equal scikit-learn's."""
    import warnings

    import numpy as np
    from sklearn.naive_bayes import MultinomialNB

    import sqlnb

    corpus = random_corpus(8, n_classes=3, vocab=80, n_train=60, n_test=20)
    corpus.load(con)
    m = sqlnb.train(con, "train_tokens", "train_labels", model="m", class_weight={"class 01": 0})
    classes = {c["label"]: c for c in m.classes()}
    assert classes["class 01"]["n_docs"] == 0 and classes["class 01"]["log_prior"] is None
    x, y, test, docs = corpus.matrices()
    with warnings.catch_warnings(), np.errstate(divide="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        reference = MultinomialNB().fit(x, y, sample_weight=(y != "class 01").astype(float))
        expected = reference.predict_proba(test)
    rows = con.execute(m.prediction_query("test_tokens", proba=True).sql("duckdb")).fetchall()
    got = {(d, label): p for d, label, _, p in rows}
    column = list(reference.classes_)
    for i, doc in enumerate(docs):
        for k, label in enumerate(column):
            assert got[(doc, label)] == pytest.approx(expected[i, k], abs=1e-12)
    predicted = [label for _, label, _ in m.predict("test_tokens").fetchall()]
    assert len(predicted) == len(docs) and "class 01" not in predicted
    # with smoothed priors it has one, and its words are alpha's alone: uniform
    smoothed = sqlnb.train(
        con, "train_tokens", "train_labels", model="s", class_weight={"class 01": 0}, prior_alpha=1
    )
    n_docs = sum(c["n_docs"] for c in smoothed.classes())
    prior = {c["label"]: c["log_prior"] for c in smoothed.classes()}
    assert prior["class 01"] == pytest.approx(np.log(1 / (n_docs + 3)), abs=1e-12)
    thetas = con.execute(
        "SELECT DISTINCT log_theta FROM sqlnb_log_theta WHERE model = 's' AND label = 'class 01'"
    ).fetchall()
    assert [round(t, 12) for (t,) in thetas] == [round(-np.log(m.info["n_features"]), 12)]
