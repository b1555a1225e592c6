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
from cli import run
from conftest import random_corpus, untouched

from sqlnb import cache

CONTROL = ("\x1b", "\x07", "\x9b", "\r")


def cli(*args: str) -> tuple[int, str, str]:
    """The command in this process (tests/cli.py), in this environment: exit code, stdout,
    stderr."""
    code, out, err = run(*args, env=None)
    return code, out, err


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


# --- model files that lie --------------------------------------------------------------------

KINDS_TRAINED = {  # model name -> how it is trained (and calibrated) in the source database
    "multi": {},
    "bern": {"kind": "bernoulli", "beta": 2},
    "comp": {"kind": "complement", "norm": True, "class_weight": "balanced"},
    "tfidf": {"idf": "smooth", "doc_norm": "l2", "sublinear_tf": True},
    "plain_idf": {"idf": "plain"},
    "sel": {
        "select": "chi2:20",
        "class_prior": {"class 00": 0.2, "class 01": 0.3, "class 02": 0.5},
    },
    "em": {"unlabeled": "test_tokens"},
    "docs": {},
    "mixed": {},
    "gauss": {},
    "cats": {},
    "temperature": {},
    "sigmoid": {},
    "isotonic": {},
    "isotonic2": {},
}


def _train_all(con: duckdb.DuckDBPyConnection) -> None:
    import sqlnb

    corpus = random_corpus(3, n_classes=3, vocab=60, n_train=60, n_test=30)
    corpus.load(con)
    con.execute(
        "CREATE TABLE docs AS SELECT doc_id, string_agg(word, ' ' ORDER BY word) AS text "
        "FROM train_tokens GROUP BY doc_id"
    )
    con.execute(
        "CREATE TABLE wide AS SELECT doc_id AS id, label, (doc_id % 7)::DOUBLE AS x, "
        "CASE WHEN doc_id % 3 = 0 THEN 'a' ELSE 'b' END AS y FROM train_labels"
    )
    con.execute("CREATE TABLE two AS SELECT doc_id, label = 'class 00' AS label FROM test_labels")
    for name, options in KINDS_TRAINED.items():
        if name == "docs":
            tokenizer = sqlnb.Tokenizer(ngrams=(1, 2), stop_words=("w1",))
            pruning = sqlnb.Pruning(min_df=2)
            sqlnb.train(
                con,
                sqlnb.Docs("docs"),
                "train_labels",
                model=name,
                tokenizer=tokenizer,
                pruning=pruning,
            )
        elif name in ("mixed", "gauss", "cats"):
            kind = {"mixed": "mixed", "gauss": "gaussian", "cats": "categorical"}[name]
            table = sqlnb.Table("wide", features=("x",) if name == "gauss" else None)
            if name == "cats":
                table = sqlnb.Table("wide", features=("y",))
            sqlnb.train(con, table, model=name, kind=kind)
        elif name == "isotonic2":  # two classes (boolean labels): the second class only
            sqlnb.train(con, "test_tokens", "two", model=name)
            sqlnb.load(con, name).calibrate("test_tokens", "two", method="isotonic")
        else:
            sqlnb.train(con, "train_tokens", "train_labels", model=name, **options)
        if name in ("temperature", "sigmoid", "isotonic"):
            sqlnb.load(con, name).calibrate("test_tokens", "test_labels", method=name)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of model files, one per model of :data:`KINDS_TRAINED` (trained in
    ``source.duckdb``), and ``target.duckdb``:
    a database holding the inputs and a model ``keep`` that imports must leave alone."""
    from sqlnb.engine import Database
    from sqlnb.files import export_model

    root = tmp_path_factory.mktemp("files")
    with duckdb.connect(str(root / "source.duckdb")) as con:
        _train_all(con)
        db = Database.connect(con)
        for name in KINDS_TRAINED:
            export_model(db, name, root / name)
    with duckdb.connect(str(root / "target.duckdb")) as con:
        random_corpus(3, n_classes=3, vocab=60, n_train=60, n_test=30).load(con)
    code, _, err = cli(
        "train",
        str(root / "target.duckdb"),
        "--model",
        "keep",
        "--tokens",
        "train_tokens",
        "--labels",
        "train_labels",
    )
    assert code == 0, err
    return root


def _params(change: Callable[[dict], object]) -> Callable[[dict], str]:
    """A change of a model file's params (parsed), written back as JSON."""
    import json

    def changed(params: dict) -> str:
        result = change(params)
        return result if isinstance(result, str) else json.dumps(params, allow_nan=True)

    return changed


def _set(path: str, value: object) -> Callable[[dict], object]:
    """Set params[a][b]... (``path`` 'a.b') to ``value``."""

    def change(params: dict) -> None:
        *outer, last = path.split(".")
        for key in outer:
            params = params[key]
        params[last] = value

    return change


MODELS = "sqlnb_models"
CALIBRATION = "sqlnb_calibration"
# case -> (model file, table, SQL over its rows as table t, or a change of its params; words
# the one-line error holds: the part and the value)
LIES: dict[str, tuple[str, str, str | Callable[[dict], str], str]] = {
    "method bogus": ("temperature", CALIBRATION, "UPDATE t SET method = 'bogus'", "'bogus'"),
    "mixed methods": (
        "sigmoid",
        CALIBRATION,
        "UPDATE t SET method = 'temperature' WHERE class_id = 0",
        "different values of method",
    ),
    "temperature 0": ("temperature", CALIBRATION, "UPDATE t SET a = 0", "temperature T = 0"),
    "temperature negative": (
        "temperature",
        CALIBRATION,
        "UPDATE t SET a = -1.5",
        "temperature T = -1.5",
    ),
    "temperatures differ": (
        "temperature",
        CALIBRATION,
        "UPDATE t SET a = 2 WHERE class_id = 1",
        "temperatures",
    ),
    "temperature NaN": ("temperature", CALIBRATION, "UPDATE t SET a = 'nan'", "values of a"),
    "sigmoid infinite": ("sigmoid", CALIBRATION, "UPDATE t SET b = '-inf'", "values of b"),
    "sigmoid two rows": (
        "sigmoid",
        CALIBRATION,
        "INSERT INTO t SELECT model, method, class_id, 0.5, hi, a, b FROM t WHERE class_id = 0",
        "not one row over",
    ),
    "isotonic lo > hi": (
        "isotonic",
        CALIBRATION,
        "UPDATE t SET lo = hi + 0.25 WHERE class_id = 0 AND lo = "
        "(SELECT MIN(lo) FROM t WHERE class_id = 0 AND lo > -1)",
        "isotonic bounds",
    ),
    "isotonic gap": (
        "isotonic",
        CALIBRATION,
        "UPDATE t SET hi = hi / 2 WHERE class_id = 1 AND lo = -1",
        "isotonic bounds",
    ),
    "isotonic decreasing": (
        "isotonic",
        CALIBRATION,
        "UPDATE t SET a = 0.9 WHERE class_id = 0 AND lo = -1",
        "non-decreasing probability",
    ),
    "isotonic above 1": (
        "isotonic",
        CALIBRATION,
        "UPDATE t SET a = 1.5 WHERE class_id = 2 AND hi = 2",
        "a = 1.5",
    ),
    "isotonic sloped outside": (
        "isotonic2",
        CALIBRATION,
        "UPDATE t SET b = 0.1 WHERE hi = 2",
        "constant outside",
    ),
    "isotonic infinite": (
        "isotonic",
        CALIBRATION,
        "UPDATE t SET hi = 'inf' WHERE hi = 2",
        "values of hi",
    ),
    "df above documents": (
        "tfidf",
        "sqlnb_doc_freq",
        "UPDATE t SET df = 1000 WHERE word = 'w1'",
        "df) of 1000",
    ),
    "df above documents, plain": (
        "plain_idf",
        "sqlnb_doc_freq",
        "UPDATE t SET df = 61 WHERE word = 'w1'",
        "above the 60",
    ),
    "df 0": ("tfidf", "sqlnb_doc_freq", "UPDATE t SET df = 0 WHERE word = 'w1'", "values of df"),
    "df fraction": ("tfidf", "sqlnb_doc_freq", "UPDATE t SET df = 2.5 WHERE word = 'w1'", "2.5"),
    "df NaN": ("tfidf", "sqlnb_doc_freq", "UPDATE t SET df = 'nan' WHERE word = 'w1'", "df"),
    "doc count 0": ("tfidf", "sqlnb_doc_count", "UPDATE t SET n = 0", "values of n"),
    "doc count missing": ("tfidf", "sqlnb_doc_count", "DELETE FROM t", "no sqlnb_doc_count row"),
    "doc count twice": (
        "tfidf",
        "sqlnb_doc_count",
        "INSERT INTO t SELECT * FROM t",
        "rows (sqlnb writes one",
    ),
    "doc freq without transform": (
        "multi",
        "sqlnb_doc_freq",
        "INSERT INTO t VALUES ('multi', 'w1', 1)",
        "writes only for a model with a document transform",
    ),
    "no documents": ("multi", "sqlnb_classes", "UPDATE t SET n_docs = 0", "a model of none"),
    "label type injection": (
        "multi",
        MODELS,
        "UPDATE t SET label_type = 'INTEGER); DROP TABLE docs; --'",
        "label_type 'INTEGER); DROP TABLE docs; --'",
    ),
    "label type struct": (
        "multi",
        MODELS,
        "UPDATE t SET label_type = 'STRUCT(a INTEGER)'",
        "label_type",
    ),
    "n_features negative": ("multi", MODELS, "UPDATE t SET n_features = -1", "n_features"),
    "deep JSON": (
        "multi",
        MODELS,
        "UPDATE t SET params = repeat('[', 100000) || repeat(']', 100000)",
        "nest 100000 deep",
    ),
    "deep JSON in a setting": (
        "multi",
        MODELS,
        _params(_set("alpha", [[[[[[1]]]]]])),
        "nest 7 deep",
    ),
    "prior NaN": (
        "sel",
        MODELS,
        _params(_set("class_prior", {"class 00": float("nan"), "class 01": 0.5, "class 02": 0.5})),
        "NaN",
    ),
    "prior 4.0 and -3": (
        "sel",
        MODELS,
        _params(_set("class_prior", {"class 00": 4.0, "class 01": -3.0, "class 02": 0.0})),
        "class prior of 'class 00' is 4.0",
    ),
    "prior infinite": (
        "sel",
        MODELS,
        _params(lambda p: json_text(p).replace('"class 00": 0.2', '"class 00": 1e999')),
        "inf",
    ),
    "prior of an unknown class": (
        "sel",
        MODELS,
        _params(_set("class_prior", {"class 00": 0.5, "x": 0.5, "class 02": 0.0})),
        "unknown class 'x'",
    ),
    "prior sum": (
        "sel",
        MODELS,
        _params(_set("class_prior", {"class 00": 0.5, "class 01": 0.4, "class 02": 0.0})),
        "sums to 0.9",
    ),
    "alpha a flag": ("multi", MODELS, _params(_set("alpha", True)), "alpha must be"),
    "fit_prior text": ("multi", MODELS, _params(_set("fit_prior", "yes")), "fit_prior must be"),
    "idf unknown": ("tfidf", MODELS, _params(_set("idf", "magic")), "idf must be one of"),
    "unknown setting": ("multi", MODELS, _params(_set("evil", 1)), "'evil'"),
    "tokenizer on a table model": (
        "mixed",
        MODELS,
        _params(
            _set(
                "tokenizer", {"lowercase": True, "pattern": "a", "stop_words": [], "ngrams": [1, 1]}
            )
        ),
        "'tokenizer', which sqlnb does not write",
    ),
    "n-grams fractions": ("docs", MODELS, _params(_set("tokenizer.ngrams", [1.5, 2])), "n-grams"),
    "tokenizer extra key": ("docs", MODELS, _params(_set("tokenizer.x", 1)), "tokenizer settings"),
    "pruning text": ("docs", MODELS, _params(_set("pruning.min_df", "a")), "pruning settings"),
    "select": ("sel", MODELS, _params(_set("select", "chi2:-1")), "--select"),
    "EM weight": ("em", MODELS, _params(_set("em.weight", -1)), "--em-weight"),
    "EM share": (
        "em",
        MODELS,
        _params(
            _set(
                "em.history", [{"iteration": 0, "log_likelihood": -1.0, "shares": {"class 00": 7}}]
            )
        ),
        "EM iteration",
    ),
    "class sizes": ("comp", MODELS, _params(_set("class_sizes", {"x": 3})), "class sizes"),
    "class sizes unbalanced": (
        "multi",
        MODELS,
        _params(_set("class_sizes", {"class 00": 3})),
        "only 'balanced'",
    ),
    "features": ("mixed", MODELS, _params(_set("features", [["x", "magic"]])), "features"),
}


def json_text(params: dict) -> str:
    import json

    return json.dumps(params)


def _tamper(folder: Path, table: str, change: str | Callable[[dict], str]) -> None:
    file = folder / f"{table}.parquet"
    with duckdb.connect() as mem:
        mem.execute(f"CREATE TABLE t AS SELECT * FROM read_parquet('{file}')")
        if isinstance(change, str):
            mem.execute(change)
        else:
            import json

            (params,) = mem.execute("SELECT params FROM t").fetchone()
            mem.execute("UPDATE t SET params = ?", [change(json.loads(params))])
        mem.execute(f"COPY t TO '{file}' (FORMAT parquet)")


@pytest.fixture(scope="module")
def target(files: Path) -> dict[str, list[str]]:
    """The snapshot of ``target.duckdb``, which each case below copies as it is: taken once,
    and read only where the copy's bytes changed (``untouched``)."""
    return snapshot(files / "target.duckdb")


@pytest.mark.parametrize("case", list(LIES))
def test_a_model_file_that_lies_is_refused_in_one_line_naming_the_part(
    files, target, tmp_path, case
):
    import shutil

    model, table, change, said = LIES[case]
    folder = tmp_path / model
    shutil.copytree(files / model, folder)
    _tamper(folder, table, change)
    db = tmp_path / "target.duckdb"
    shutil.copy(files / "target.duckdb", db)
    code, _, err = cli("import", str(db), str(folder), "--model", "m")
    one_line(code, err, said, str(folder))
    assert untouched(db, files / "target.duckdb") or snapshot(db) == target


@pytest.mark.parametrize("model", list(KINDS_TRAINED))
def test_every_kind_and_calibration_round_trips_through_a_model_file(files, tmp_path, model):
    """export -> import -> export: the same files (but for the time of training), and the
    imported model predicts as the one exported (its calibration included)."""
    import shutil

    import sqlnb
    from sqlnb.engine import Database
    from sqlnb.files import export_model, import_model

    shutil.copy(files / "source.duckdb", tmp_path / "source.duckdb")
    with duckdb.connect(str(tmp_path / "source.duckdb")) as con:
        db = Database.connect(con)
        assert import_model(db, files / model, "back") == "back"
        export_model(db, "back", tmp_path / "again")
        for part in (files / model).iterdir():
            ours = con.execute(f"SELECT * EXCLUDE (model) FROM read_parquet('{part}')").fetchall()
            again = con.execute(
                f"SELECT * EXCLUDE (model) FROM read_parquet('{tmp_path / 'again' / part.name}')"
            ).fetchall()
            if part.name == "sqlnb_models.parquet":  # trained_at differs
                ours, again = [r[:5] for r in ours], [r[:5] for r in again]
            assert sorted(map(repr, ours)) == sorted(map(repr, again)), part.name
        data = {
            "mixed": sqlnb.Table("wide"),
            "gauss": sqlnb.Table("wide", features=("x",)),
            "cats": sqlnb.Table("wide", features=("y",)),
            "docs": sqlnb.Docs("docs"),
        }
        source = data.get(model, "test_tokens")
        shutil.rmtree(tmp_path / "again")
        a = sqlnb.load(con, model).prediction_query(source, proba=True)
        b = sqlnb.load(con, "back").prediction_query(source, proba=True)
        exported = sorted(con.execute(a.sql("duckdb")).fetchall())
        imported = sorted(con.execute(b.sql("duckdb")).fetchall())
        assert [r[:2] for r in exported] == [r[:2] for r in imported]
        for x, y in zip((v for r in exported for v in r[2:]), (v for r in imported for v in r[2:])):
            assert (x is None and y is None) or y == pytest.approx(x, rel=1e-12, abs=1e-12)


def _postgres_snapshot(engine) -> dict[str, list[str]]:
    with engine.db.connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() ORDER BY 1"
        )
        names = [r[0] for r in cursor.fetchall()]
        found = {}
        for name in names:
            cursor.execute(f'SELECT * FROM "{name}"')
            found[name] = sorted(map(repr, cursor.fetchall()))
    return found


@pytest.mark.postgres
@pytest.mark.parametrize(
    "case", ["method bogus", "isotonic lo > hi", "df above documents", "label type injection"]
)
def test_postgres_refuses_a_model_file_that_lies_and_keeps_its_tables(files, tmp_path, case):
    import shutil

    from engines import open_engine

    import sqlnb
    from sqlnb.files import import_model

    model, table, change, said = LIES[case]
    shutil.copytree(files / model, tmp_path / model)
    _tamper(tmp_path / model, table, change)
    for engine in open_engine("postgres"):
        assert import_model(engine.db, files / "isotonic", "keep") == "keep"  # the control
        before = _postgres_snapshot(engine)
        with pytest.raises(sqlnb.SqlnbError) as refused:
            import_model(engine.db, tmp_path / model, "keep")
        message = str(refused.value)
        assert said in message and "\n" not in message, message
        assert _postgres_snapshot(engine) == before
