"""Every engine agrees with DuckDB within 1e-9: priors, parameters, log-probabilities, labels.

Each case runs on SQLite, PostgreSQL, Spark and ClickHouse (chDB) and on DuckDB, including the
hard cases: scores
whose differences underflow exp (log-odds near -75,000), tiny and zero alpha, ties, documents
with no known word, missing values, and labels that are text, integers and booleans.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest
from conftest import random_corpus
from engines import duckdb_results
from sqlglot import exp

import sqlnb


def text_frames(seed: int, label_kind: str) -> dict[str, pd.DataFrame]:
    corpus = random_corpus(
        seed,
        n_classes=3 if label_kind != "bool" else 2,
        vocab=120,
        n_train=60,
        n_test=16,
        label_kind=label_kind,
    )
    hard = pd.DataFrame(
        {"doc_id": [999_001, 999_002, 999_002], "word": ["w0", "w1", "w2"], "count": [3300, 1, 1]}
    )
    return {
        "train_tokens": corpus.train_tokens,
        "train_labels": corpus.train_labels,
        "test_tokens": pd.concat([corpus.test_tokens, hard], ignore_index=True),
    }


def table_frame(seed: int) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    n = 120
    y = rng.integers(0, 3, n)
    frame = pd.DataFrame(
        {
            "id": np.arange(n),
            "a": rng.normal(size=n) * 5 + y * 3,
            "b": rng.normal(size=n) * (1 + y),
            "c": [f"v{v}" for v in (rng.integers(0, 3, n) + y) % 4],
            "label": [f"k{v}" for v in y],
        }
    )
    frame.loc[::13, "a"] = np.nan
    frame.loc[5::11, "c"] = None
    return {"t": frame}


CASES = {
    "multinomial-text-tiny-alpha-uniform": (
        lambda: text_frames(1, "text"),
        "tokens",
        dict(alpha=1e-10, fit_prior=False),
    ),
    "multinomial-int-alpha-zero": (lambda: text_frames(2, "int"), "tokens", dict(alpha=0.0)),
    "multinomial-given-prior": (
        lambda: text_frames(3, "text"),
        "tokens",
        dict(class_prior={"class 00": 0.5, "class 01": 0.3, "class 02": 0.2}),
    ),
    "bernoulli-bool-beta": (
        lambda: text_frames(4, "bool"),
        "tokens",
        dict(kind="bernoulli", alpha=0.5, beta=2.0, prior_alpha=1.0),
    ),
    "complement-norm": (
        lambda: text_frames(5, "text"),
        "tokens",
        dict(kind="complement", norm=True),
    ),
    "multinomial-tfidf-weighted": (
        lambda: text_frames(9, "text"),
        "tokens",
        dict(idf="smooth", doc_norm="l2", class_weight="balanced"),
    ),
    "complement-sublinear-idf": (
        lambda: text_frames(10, "text"),
        "tokens",
        dict(kind="complement", sublinear_tf=True, idf="plain", norm=True),
    ),
    "gaussian": (lambda: table_frame(6), "table", dict(kind="gaussian", features=("a", "b"))),
    "categorical": (lambda: table_frame(7), "table", dict(kind="categorical", features=("c",))),
    "mixed": (lambda: table_frame(8), "table", dict()),
}

PARAMETER_TABLES = {
    "multinomial": ["sqlnb_log_theta"],
    "complement": ["sqlnb_log_theta"],
    "bernoulli": ["sqlnb_log_theta", "sqlnb_log_absent"],
    "gaussian": ["sqlnb_gaussian"],
    "categorical": ["sqlnb_category_log_theta"],
    "mixed": ["sqlnb_gaussian", "sqlnb_category_log_theta"],
}


def canonical(value):
    """Values compared across engines: booleans as integers, as SQLite, which has no boolean
    type, stores them (and so its labels' text is '0' and '1')."""
    if isinstance(value, bool):
        return int(value)
    return {"false": "0", "true": "1"}.get(value, value) if isinstance(value, str) else value


def columns_of(table: str) -> list[str]:
    """One of sqlnb's tables' columns in their declared order (Spark puts the partition column
    ``model`` last), or ``*`` for another table."""
    from sqlnb import templates

    name = f"catalog/create_{table.removeprefix('sqlnb_')}.sql"
    if name not in templates.names():
        return ["*"]
    tree = templates.parsed(name)
    if not isinstance(tree.this, exp.Schema):  # a view: its own order
        return ["*"]
    return [c.name for c in tree.this.expressions]


def rows_of(db: sqlnb.Database, table: str) -> list[tuple]:
    rows = db.fetch(exp.select(*columns_of(table)).from_(exp.to_table(table)))
    return sorted((tuple(canonical(v) for v in r) for r in rows), key=repr)


def assert_close_rows(a: list[tuple], b: list[tuple], numeric: set[int]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b):
        for i, (u, v) in enumerate(zip(x, y)):
            if i in numeric:
                assert (u is None) == (v is None), (x, y)
                if u is not None:
                    assert abs(u - v) <= 1e-9 * max(1.0, abs(u)), (x, y)
            else:
                assert u == v, (x, y)


def train(db: sqlnb.Database, source: str, options: dict) -> sqlnb.Model:
    options = dict(options)
    if source == "table":
        data = sqlnb.Table("t", features=options.pop("features", None))
        return sqlnb.train(db, data, **options)
    return sqlnb.train(db, "train_tokens", "train_labels", **options)


def _case_results(e, case: str) -> dict:
    """A case trained on an engine: its params, its prior and parameter tables' rows, its
    posteriors (log_proba NULL where -infinity) and labels, and its evaluation."""
    build, source, options = CASES[case]
    for name, frame in build().items():
        e.load(name, frame)
    model = train(e.db, source, options)
    data = sqlnb.Table("t") if source == "table" else sqlnb.Tokens("test_tokens")

    def predictions(proba: bool) -> list[tuple]:
        rows = model.db.fetch(model.prediction_query(data, proba=proba))
        return sorted((tuple(canonical(v) for v in r) for r in rows), key=repr)

    return {
        "params": model.params,
        "tables": {
            table: rows_of(e.db, table)
            for table in ["sqlnb_prior", *PARAMETER_TABLES[model.kind_name]]
        },
        "proba": predictions(True),
        "labels": predictions(False),
        "evaluation": model.evaluate(
            data if source == "table" else "test_tokens",
            None if source == "table" else "train_labels",
        ),
    }


@pytest.mark.parametrize("case", CASES)
def test_engine_agrees_with_duckdb(engine, case):
    got = _case_results(engine, case)
    expected = duckdb_results(("case", case), lambda reference: _case_results(reference, case))
    assert got["params"] == expected["params"]
    # Priors and parameters.
    assert got["tables"].keys() == expected["tables"].keys()
    for table, b in expected["tables"].items():
        numeric = {i for i, v in enumerate(b[0]) if isinstance(v, float)}
        assert_close_rows(got["tables"][table], b, numeric)
    # Posteriors (log_proba NULL where -infinity) and labels.
    assert_close_rows(got["proba"], expected["proba"], {2, 3})
    assert_close_rows(got["labels"], expected["labels"], {2})
    if CASES[case][1] == "tokens":
        probas = {r[0]: r for r in expected["proba"] if r[0] == 999_001}
        assert probas, "the long document is scored"
    # Evaluation agrees too.
    a, b = got["evaluation"], expected["evaluation"]
    assert a["confusion"] == b["confusion"] or [
        {k: str(canonical(v)) for k, v in c.items()} for c in a["confusion"]
    ] == [{k: str(canonical(v)) for k, v in c.items()} for c in b["confusion"]]
    for key in ("accuracy", "macro_f1", "log_loss"):
        assert a[key] == pytest.approx(b[key], abs=1e-9)


@pytest.mark.spark
@pytest.mark.process
def test_spark_url_honours_spark_conf_dir(tmp_path):
    """Two runs of the command with the same Spark configuration (a Hive metastore and a
    warehouse directory in spark-defaults.conf) see the same tables; sqlnb sets none of it.
    Each command is a process of its own (its own JVM): what one leaves, the next reads."""
    import json

    import cli
    from engines import unavailable

    try:
        import pyspark  # noqa: F401
    except ImportError:
        unavailable("pyspark is not installed (pip install 'sqlnb[spark]')")
    conf = tmp_path / "conf"
    conf.mkdir()
    (conf / "spark-defaults.conf").write_text(
        f"spark.sql.warehouse.dir {tmp_path / 'warehouse'}\n"
        "spark.sql.catalogImplementation hive\n"
        "spark.hadoop.javax.jdo.option.ConnectionURL "
        f"jdbc:derby:;databaseName={tmp_path / 'metastore_db'};create=true\n"
        f"spark.driver.extraJavaOptions -Dderby.system.home={tmp_path}\n"
        "spark.sql.shuffle.partitions 2\nspark.ui.enabled false\n"
    )
    frames = text_frames(9, "text")
    for name in ("train_tokens", "train_labels"):
        frames[name].to_parquet(tmp_path / f"{name}.parquet")
    env = {**os.environ, "SPARK_CONF_DIR": str(conf)}

    def sqlnb_cli(*args: str) -> str:
        return cli.process(*args, env=env, cwd=tmp_path, ok=True).stdout

    sqlnb_cli(
        "train",
        "spark://local[1]",
        "--tokens",
        str(tmp_path / "train_tokens.parquet"),
        "--labels",
        str(tmp_path / "train_labels.parquet"),
        "--model",
        "spam",
    )
    [listed] = json.loads(sqlnb_cli("models", "spark://local[1]", "--json"))
    assert listed["model"] == "spam" and listed["classes"] == ["class 00", "class 01", "class 02"]
    assert (tmp_path / "warehouse" / "sqlnb_models").exists()


def _emails_frames() -> dict[str, pd.DataFrame]:
    frames = text_frames(10, "text")
    ids = sorted(set(frames["test_tokens"]["doc_id"]))
    frames["emails"] = pd.DataFrame(
        {
            "id": [*ids, 5_000_000],
            "subject": [f"s{i}" for i in range(len(ids) + 1)],
            "score": np.arange(len(ids) + 1) * 0.5,
        }
    )
    return frames


def _classified(e) -> list[tuple]:
    for name, frame in _emails_frames().items():
        e.load(name, frame)
    model = sqlnb.train(e.db, "train_tokens", "train_labels")
    model.classify("emails", "id", sqlnb.Tokens("test_tokens"), "predicted", "p")
    model.classify("emails", "id", sqlnb.Tokens("test_tokens"), "predicted")  # again
    assert list(e.db.columns(exp.to_table("emails"))) == [
        "id",
        "subject",
        "score",
        "predicted",
        "p",
    ]
    return sorted(e.db.fetch(exp.select("*").from_(exp.to_table("emails"))))


def test_classify_in_place_on_every_engine(engine):
    got = _classified(engine)
    expected = duckdb_results("classify", _classified)  # DuckDB's once (issue 36)
    assert [r[:4] for r in got] == [r[:4] for r in expected]
    assert all(abs(a[4] - b[4]) <= 1e-12 for a, b in zip(got, expected))
    emails = _emails_frames()["emails"]
    assert [r[:3] for r in got] == sorted(emails.itertuples(index=False, name=None))


def _pipeline(e) -> tuple[list, list]:
    """The tokens of raw text, and the predictions of a model trained from it."""
    from test_text import corpus

    e.load("docs", corpus(12, n=60))
    tokenizer = sqlnb.Tokenizer(ngrams=(1, 2), stop_words=sqlnb.stop_words.ENGLISH[:50])
    tokens = sorted(e.db.fetch(tokenizer.tokens(sqlnb.Docs("docs"), e.db)))
    model = sqlnb.train(
        e.db, sqlnb.Docs("docs"), tokenizer=tokenizer, pruning=sqlnb.Pruning(min_df=2)
    )
    return tokens, sorted(e.db.fetch(model.prediction_query(sqlnb.Docs("docs"), proba=True)))


def test_text_pipeline_on_every_engine(engine):
    """Tokenizing in SQL, training from raw text and classifying raw text agree with DuckDB
    (Unicode letters and apostrophes included; n-grams; english stop words)."""
    got = _pipeline(engine)
    expected = duckdb_results("pipeline", _pipeline)  # DuckDB's once (issue 36)
    assert got[0] == expected[0] and any("é" in r[1] for r in expected[0])
    results = [got[1], expected[1]]
    assert [r[:2] for r in results[0]] == [r[:2] for r in results[1]]
    assert all(abs(a[2] - b[2]) <= 1e-9 for a, b in zip(*results))


def test_calibration_and_decisions_on_every_engine(engine):
    """calibrate fits the same calibration on every engine, whose predictions with it, with
    costs and with estimated priors agree with DuckDB's; evaluate's ECE and Brier too. (On
    Spark, whose every query costs about a second, isotonic only: the fits' SQL is the same on
    every engine.)"""
    methods = ("isotonic",) if engine.name == "spark" else ("temperature", "sigmoid", "isotonic")
    expected = duckdb_results(
        ("calibration", methods), lambda reference: _calibrated_all(reference, methods)
    )
    for method, got in zip(methods, _calibrated_all(engine, methods)):
        _calibration_agrees(got, expected[methods.index(method)])


def _calibrated_all(e, methods: tuple[str, ...]) -> list[tuple]:
    """The data loaded once, then per method a training, its calibration and what follows."""
    frames = text_frames(17, "text")
    frames["costs"] = pd.DataFrame(
        [
            (a, p, 0.0 if a == p else 1.0 + 3 * (a == "class 02"))
            for a in ("class 00", "class 01", "class 02")
            for p in ("class 00", "class 01", "class 02")
        ],
        columns=["actual", "predicted", "cost"],
    )
    for name, frame in frames.items():
        e.load(name, frame)
    return [_calibrated(e, method) for method in methods]


def _calibrated(e, method: str) -> tuple:
    model = sqlnb.train(e.db, "train_tokens", "train_labels", alpha=0.5)
    model.calibrate("train_tokens", "train_labels", method=method)
    model = sqlnb.load(e.db, "default")
    stored = e.db.fetch(
        exp.select("class_id", "lo", "a", "b").from_("sqlnb_calibration").order_by("class_id", "lo")
    )
    options = model.decision_options(costs="costs")
    costed = e.db.fetch(model.prediction_query("test_tokens", **options))
    priors = model.new_priors("estimate", "test_tokens")
    shifted = e.db.fetch(
        model.prediction_query("test_tokens", proba=True, **model.decision_options(priors=priors))
    )
    measures = model.evaluate("train_tokens", "train_labels")
    return stored, costed, priors, shifted, measures


def _calibration_agrees(got: tuple, expected: tuple) -> None:
    stored, costed, priors, shifted, measures = got
    for rows, want, numeric in (
        (stored, expected[0], {1, 2, 3}),
        (costed, expected[1], {2, 3}),
        (shifted, expected[3], {2, 3}),
    ):
        a = sorted((tuple(canonical(v) for v in r) for r in rows), key=repr)
        b = sorted((tuple(canonical(v) for v in r) for r in want), key=repr)
        assert_close_rows(a, b, numeric)
    assert priors == pytest.approx(expected[2], abs=1e-9)
    for key in ("log_loss", "brier", "ece", "accuracy"):
        assert measures[key] == pytest.approx(expected[4][key], abs=1e-9)
