"""Trustworthy under bad input, failure and concurrency (issue 6).

- Bad input: exit code 1, exactly one line on stderr starting with ``Error: `` that names the
  table, column or value at fault, and every table of the database exactly as before. On DuckDB
  through the command (in this process, tests/cli.py); the same cases through the Python API
  on SQLite, PostgreSQL and Spark.
- Failure never destroys a model: SIGKILL at random points of a long training, Ctrl-C (SIGINT)
  without a terminal, a reader while another process trains, two trainings at once.
- Names are never code: arbitrary strings for every name (hypothesis), on DuckDB, SQLite and
  PostgreSQL.
- What counts as training data: fractional counts (= scikit-learn), labeled documents without
  tokens (empty documents for the prior), tokens without a label (ignored).

PostgreSQL tests use $SQLNB_TEST_POSTGRES as tests/engines.py does (skipped when nothing
answers, except in CI). The SIGKILL, Ctrl-C and lock tests need Linux (/proc).

Checks that fail because of code outside ``sqlnb/engine.py`` would be marked ``xfail(strict=True)``
with the reason: when the fix lands they pass, and the strict mark makes that visible.
"""

from __future__ import annotations

import math
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cli
import duckdb
import numpy as np
import pandas as pd
import pytest
from conftest import random_corpus, untouched
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.naive_bayes import MultinomialNB

import sqlnb
from sqlnb.errors import SqlnbError

# How long a command may take before the test calls it hung.
TIMEOUT = 60


run = cli.run  # the command in this process (tests/cli.py): exit code, stdout, stderr


def snapshot(path: Path) -> dict[str, Any]:
    """Every table's sorted contents and every view's definition."""
    with duckdb.connect(str(path), read_only=True) as con:
        tables = con.execute(
            "SELECT schema_name, table_name FROM duckdb_tables() WHERE NOT temporary"
        ).fetchall()
        views = con.execute(
            "SELECT schema_name, view_name, sql FROM duckdb_views() WHERE NOT internal"
        ).fetchall()
        state: dict[str, Any] = {
            f"{s}.{t}": sorted(map(repr, con.execute(f'SELECT * FROM "{s}"."{t}"').fetchall()))
            for s, t in tables
        }
        state.update({f"view {s}.{v}": sql for s, v, sql in views})
        return state


def assert_one_line_error(code: int, stderr: str, message: str) -> None:
    assert code == 1, f"exit code {code}, stderr: {stderr!r}"
    assert stderr.startswith("Error: "), stderr
    assert stderr.count("\n") == 1 and stderr.endswith("\n"), stderr
    assert message in stderr, f"{message!r} not in {stderr!r}"


# --- a database with a trained model and every kind of bad input -----------------------------

BAD_INPUTS = [
    # NULLs, refused with their number
    """CREATE TABLE null_doc_tokens AS SELECT CASE WHEN doc_id < 3 THEN NULL ELSE doc_id END
       AS doc_id, word, count FROM (SELECT * FROM tokens WHERE doc_id < 3 QUALIFY ROW_NUMBER()
       OVER (PARTITION BY doc_id ORDER BY word) = 1 UNION ALL SELECT * FROM tokens
       WHERE doc_id >= 3)""",
    """CREATE TABLE null_word_tokens AS SELECT doc_id, CASE WHEN doc_id = 0 AND word IN
       (SELECT MIN(word) FROM tokens WHERE doc_id = 0 UNION SELECT MAX(word) FROM tokens
       WHERE doc_id = 0) THEN NULL ELSE word END AS word, count FROM tokens""",
    # two rows (NULL, 'class 00'): the same pair twice, still two rows
    """CREATE TABLE null_doc_labels AS SELECT CASE WHEN doc_id IN (0, 1) THEN NULL ELSE doc_id
       END AS doc_id, CASE WHEN doc_id IN (0, 1) THEN 'class 00' ELSE label END AS label
       FROM labels""",
    """CREATE TABLE null_label_labels AS SELECT doc_id, CASE WHEN doc_id < 4 THEN NULL ELSE
       label END AS label FROM labels""",
    # counts
    """CREATE TABLE negative_tokens AS SELECT doc_id, word, CASE WHEN doc_id = 0 AND word =
       (SELECT MIN(word) FROM tokens WHERE doc_id = 0) THEN -1 ELSE count END AS count
       FROM tokens""",
    """CREATE TABLE nan_tokens AS SELECT doc_id, word, CASE WHEN doc_id = 0 THEN 'nan'::DOUBLE
       ELSE count END AS count FROM tokens""",
    """CREATE TABLE inf_tokens AS SELECT doc_id, word, CASE WHEN doc_id = 0 THEN 'inf'::DOUBLE
       ELSE count END AS count FROM tokens""",
    """CREATE TABLE null_count_tokens AS SELECT doc_id, word, CASE WHEN doc_id = 0 THEN NULL
       ELSE count END AS count FROM tokens""",
    "CREATE TABLE text_count_tokens AS SELECT doc_id, word, CAST(count AS VARCHAR) AS count "
    "FROM tokens",
    "CREATE TABLE nan_test_tokens AS SELECT doc_id, word, CASE WHEN doc_id = 100000 THEN "
    "'nan'::DOUBLE ELSE count END AS count FROM test_tokens",
    "CREATE TABLE negative_test_tokens AS SELECT doc_id, word, CASE WHEN doc_id = 100000 THEN "
    "-count ELSE count END AS count FROM test_tokens",
    "CREATE TABLE null_doc_test_tokens AS SELECT CASE WHEN doc_id = 100000 THEN NULL ELSE "
    "doc_id END AS doc_id, word, count FROM test_tokens",
    # empty, conflicting and differently typed labels
    "CREATE TABLE empty_labels AS SELECT * FROM labels WHERE false",
    "CREATE TABLE empty_tokens AS SELECT * FROM tokens WHERE false",
    """CREATE TABLE two_labels AS SELECT * FROM labels UNION ALL SELECT 7 AS doc_id, CASE
       WHEN label = 'class 00' THEN 'class 01' ELSE 'class 00' END FROM labels
       WHERE doc_id = 7""",
    "CREATE TABLE int_labels AS SELECT doc_id, 1 AS label FROM test_labels",
    "CREATE TABLE bool_labels AS SELECT doc_id, true AS label FROM test_labels",
    "CREATE TABLE int_train_labels AS SELECT doc_id, CAST(right(label, 1) AS INTEGER) AS label "
    "FROM labels",
    # a view, and a view whose table is gone
    "CREATE VIEW tokens_view AS SELECT * FROM tokens",
    "CREATE TABLE gone AS SELECT 1 AS doc_id",
    "CREATE VIEW broken_view AS SELECT * FROM gone",
    "DROP TABLE gone",
    # wide tables
    """CREATE TABLE flowers AS SELECT i AS id, (i % 3) * 1.5 + (i % 7) * 0.1 AS petal,
       CASE WHEN i % 3 = 0 THEN 'short' ELSE 'long' END AS stem, 'k' || (i % 3) AS species
       FROM range(60) AS r(i)""",
    """CREATE TABLE constant_flowers AS SELECT id, CASE WHEN species = 'k1' THEN 2.5 ELSE petal
       END AS petal, stem, species FROM flowers""",
    "CREATE TABLE null_id_flowers AS SELECT CASE WHEN id < 2 THEN NULL ELSE id END AS id, "
    "petal, stem, species FROM flowers",
    "CREATE TABLE duplicate_id_flowers AS SELECT id % 50 AS id, petal, stem, species FROM flowers",
    "CREATE TABLE empty_flowers AS SELECT * FROM flowers WHERE false",
    "CREATE TABLE nan_flowers AS SELECT id, CASE WHEN id = 4 THEN 'nan'::DOUBLE ELSE petal END "
    "AS petal, stem, species FROM flowers",
]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DuckDB file with a text model 'm' (text labels), 'm_int' (integer labels), a table
    model 'tab', an earlier prediction table, and every kind of bad input."""
    path = tmp_path_factory.mktemp("robustness") / "template.duckdb"
    corpus = random_corpus(5, n_classes=3, vocab=300)
    with duckdb.connect(str(path)) as con:
        corpus.load(con)
        con.execute("CREATE TABLE tokens AS SELECT * FROM train_tokens")
        con.execute("CREATE TABLE labels AS SELECT * FROM train_labels")
        for statement in BAD_INPUTS:
            con.execute(statement)
        sqlnb.train(con, "tokens", "labels", model="m")
        sqlnb.train(con, "tokens", "int_train_labels", model="m_int")
        sqlnb.train(con, sqlnb.Table("flowers", "id", "species"), model="tab")
        sqlnb.load(con, "m").predict_to("test_tokens", "earlier_predictions")
    return path


@dataclass
class Case:
    args: list[str]
    message: str
    marks: list[Any] = field(default_factory=list)

    def param(self, name: str) -> Any:
        return pytest.param(self, id=name, marks=self.marks)


def xfail(reason: str) -> list[Any]:
    return [pytest.mark.xfail(strict=True, reason=reason)]


TEST = ["--tokens", "test_tokens"]
PREDICT = ["predict", "{db}", "--model", "m", "--output", "out"]
EVALUATE = ["evaluate", "{db}", "--model", "m", *TEST, "--labels", "test_labels"]
FLOWERS = ["--table", "flowers", "--label-column", "species"]
PREDICT_CHECKS: list[Any] = []
TYPER_CHOICE: list[Any] = []

CASES: dict[str, Case] = {
    # a missing database file, for anything but train
    "missing-db-predict": Case(["predict", "{missing}", "--output", "o"], "does not exist"),
    "missing-db-models": Case(["models", "{missing}"], "does not exist"),
    "missing-db-sql-train": Case(["sql", "train", "{missing}"], "does not exist"),
    "not-a-database": Case(["models", "{garbage}"], "cannot open"),
    # missing tables and views
    "train-missing-tokens": Case(
        ["train", "{db}", "--tokens", "nope"], "table 'nope' does not exist"
    ),
    "train-missing-labels": Case(
        ["train", "{db}", "--labels", "nope"], "table 'nope' does not exist"
    ),
    "train-missing-schema": Case(
        ["train", "{db}", "--tokens", "nowhere.tokens"], "'nowhere.tokens'"
    ),
    "train-missing-table": Case(
        ["train", "{db}", "--table", "nope", "--label-column", "species"],
        "table 'nope' does not exist",
    ),
    "train-broken-view": Case(
        ["train", "{db}", "--tokens", "broken_view"],
        "cannot read 'broken_view': the table 'gone' it reads does not exist",
    ),
    "predict-missing-tokens": Case([*PREDICT, "--tokens", "nope"], "table 'nope' does not exist"),
    "predict-missing-table": Case(
        ["predict", "{db}", "--model", "tab", "--table", "nope", "--output", "out"],
        "table 'nope' does not exist",
    ),
    "predict-broken-view": Case(
        [*PREDICT, "--tokens", "broken_view"], "the table 'gone' it reads does not exist"
    ),
    "evaluate-missing-labels": Case(
        ["evaluate", "{db}", "--model", "m", *TEST, "--labels", "nope"],
        "table 'nope' does not exist",
    ),
    # missing columns
    "missing-doc-column": Case(
        ["train", "{db}", "--doc-column", "nope"], "has no document id column 'nope'"
    ),
    "missing-word-column": Case(
        ["train", "{db}", "--word-column", "nope"], "table 'tokens' has no word column 'nope'"
    ),
    "missing-count-column": Case(
        ["train", "{db}", "--count-column", "nope"], "table 'tokens' has no count column 'nope'"
    ),
    "missing-label-column": Case(
        ["train", "{db}", "--label-column", "nope"], "table 'labels' has no label column 'nope'"
    ),
    "missing-id-column": Case(
        ["train", "{db}", *FLOWERS, "--id-column", "nope"],
        "table 'flowers' has no id column 'nope'",
    ),
    "missing-table-label-column": Case(
        ["train", "{db}", "--table", "flowers", "--label-column", "nope"], "'nope'"
    ),
    "missing-feature-column": Case(
        ["train", "{db}", *FLOWERS, "--features", "petal,nope"],
        "table 'flowers' has no feature column 'nope'",
    ),
    "predict-missing-id-column": Case(
        [
            "predict",
            "{db}",
            "--model",
            "tab",
            "--table",
            "flowers",
            "--id-column",
            "nope",
            "--output",
            "out",
        ],
        "has no id column 'nope'",
    ),
    "evaluate-missing-label-column": Case(
        [*EVALUATE, "--label-column", "nope"], "no label column 'nope'"
    ),
    # columns of the wrong type
    "text-counts": Case(
        ["train", "{db}", "--tokens", "text_count_tokens"],
        "column 'count' of 'text_count_tokens' holds text",
    ),
    "text-count-column": Case(
        ["train", "{db}", "--count-column", "word"], "column 'word' of 'tokens' holds text"
    ),
    "predict-text-counts": Case([*PREDICT, "--tokens", "text_count_tokens"], "holds text"),
    "evaluate-integer-labels-for-text-model": Case(
        ["evaluate", "{db}", "--model", "m", *TEST, "--labels", "int_labels"],
        "labels column 'label' of 'int_labels' is INTEGER, but model 'm' was trained on "
        "VARCHAR labels",
    ),
    "evaluate-boolean-labels-for-text-model": Case(
        ["evaluate", "{db}", "--model", "m", *TEST, "--labels", "bool_labels"],
        "is BOOLEAN, but model 'm' was trained on VARCHAR labels",
    ),
    "evaluate-text-labels-for-integer-model": Case(
        ["evaluate", "{db}", "--model", "m_int", *TEST, "--labels", "test_labels"],
        "is VARCHAR, but model 'm_int' was trained on INTEGER labels",
    ),
    "gaussian-text-feature": Case(
        ["train", "{db}", *FLOWERS, "--gaussian", "stem"], "a Gaussian feature must be numeric"
    ),
    # NULLs, named with their number
    "null-doc-id": Case(
        ["train", "{db}", "--tokens", "null_doc_tokens"],
        "tokens table 'null_doc_tokens' has 3 rows with a NULL document id in column 'doc_id'",
    ),
    "null-word": Case(
        ["train", "{db}", "--tokens", "null_word_tokens"],
        "tokens table 'null_word_tokens' has 2 rows with a NULL word in column 'word'",
    ),
    "null-label-doc-id": Case(
        ["train", "{db}", "--labels", "null_doc_labels"],
        "labels table 'null_doc_labels' has 2 rows with a NULL document id in column 'doc_id'",
    ),
    "null-label": Case(
        ["train", "{db}", "--labels", "null_label_labels"],
        "labels table 'null_label_labels' has 4 rows with a NULL label in column 'label'",
    ),
    "null-id": Case(
        ["train", "{db}", "--table", "null_id_flowers", "--label-column", "species"],
        "table 'null_id_flowers' has 2 rows with a NULL id in column 'id'",
    ),
    "duplicate-id": Case(
        ["train", "{db}", "--table", "duplicate_id_flowers", "--label-column", "species"],
        "id column 'id' is not unique",
    ),
    "predict-null-doc-id": Case(
        [*PREDICT, "--tokens", "null_doc_test_tokens"],
        "rows with a NULL document id",
        marks=PREDICT_CHECKS,
    ),
    "evaluate-null-label": Case(
        ["evaluate", "{db}", "--model", "m", *TEST, "--labels", "null_label_labels"],
        "rows with a NULL label",
    ),
    # counts
    "negative-count": Case(
        ["train", "{db}", "--tokens", "negative_tokens"],
        "tokens table 'negative_tokens' has 1 negative counts",
    ),
    "nan-count": Case(
        ["train", "{db}", "--tokens", "nan_tokens"],
        "counts that are NULL, NaN or infinite",
    ),
    "infinite-count": Case(
        ["train", "{db}", "--tokens", "inf_tokens"],
        "counts that are NULL, NaN or infinite",
    ),
    "null-count": Case(
        ["train", "{db}", "--tokens", "null_count_tokens"],
        "counts that are NULL, NaN or infinite",
    ),
    "nan-feature": Case(
        ["train", "{db}", "--table", "nan_flowers", "--label-column", "species"],
        "feature 'petal' of 'nan_flowers' is NaN or infinite in row 4",
    ),
    "predict-nan-count": Case(
        [*PREDICT, "--tokens", "nan_test_tokens"],
        "counts that are NULL, NaN or infinite",
        marks=PREDICT_CHECKS,
    ),
    "predict-negative-count": Case(
        [*PREDICT, "--tokens", "negative_test_tokens"], "negative counts", marks=PREDICT_CHECKS
    ),
    "evaluate-nan-count": Case(
        [
            "evaluate",
            "{db}",
            "--model",
            "m",
            "--tokens",
            "nan_test_tokens",
            "--labels",
            "test_labels",
        ],
        "counts that are NULL, NaN or infinite",
        marks=PREDICT_CHECKS,
    ),
    # an empty training set
    "empty-labels": Case(
        ["train", "{db}", "--labels", "empty_labels"],
        "labels table 'empty_labels' is empty: nothing to train on",
    ),
    "empty-tokens-and-labels": Case(
        ["train", "{db}", "--tokens", "empty_tokens", "--labels", "empty_labels"],
        "is empty",
    ),
    "empty-table": Case(
        ["train", "{db}", "--table", "empty_flowers", "--label-column", "species"],
        "'empty_flowers' is empty",
    ),
    # a document with two different labels
    "two-labels": Case(
        ["train", "{db}", "--labels", "two_labels"],
        "labels table 'two_labels' gives document 7 two different labels",
    ),
    # unknown model, kind, dialect
    "predict-unknown-model": Case(
        ["predict", "{db}", "--model", "nope", *TEST, "--output", "o"],
        "no model named 'nope' in this database",
    ),
    "drop-unknown-model": Case(["drop", "{db}", "--model", "nope"], "no model named 'nope'"),
    "unknown-kind": Case(
        ["train", "{db}", "--kind", "nope"], "unknown kind 'nope'", marks=TYPER_CHOICE
    ),
    "unknown-dialect": Case(
        ["sql", "train", "{db}", "--dialect", "oracle"],
        "unknown dialect 'oracle'",
        marks=TYPER_CHOICE,
    ),
    "kind-for-other-input": Case(
        ["train", "{db}", *FLOWERS, "--kind", "multinomial"], "kind 'multinomial' trains from"
    ),
    "predict-tokens-with-table-model": Case(
        ["predict", "{db}", "--model", "tab", *TEST, "--output", "o"], "reads a wide table"
    ),
    # hyperparameters
    "negative-alpha": Case(
        ["train", "{db}", "--alpha", "-1"], "alpha must be a finite number >= 0, not -1.0"
    ),
    "nan-alpha": Case(["train", "{db}", "--alpha", "nan"], "alpha must be a finite number"),
    "negative-var-smoothing": Case(
        ["train", "{db}", *FLOWERS, "--var-smoothing", "-1"], "var_smoothing must be"
    ),
    "option-kind-does-not-use": Case(
        ["train", "{db}", "--beta", "1"], "kind 'multinomial' does not use --beta"
    ),
    "class-prior-sum": Case(
        ["train", "{db}", "--class-prior", "class 00=0.5,class 01=0.2,class 02=0.2"],
        "class prior sums to 0.9, not 1",
    ),
    "class-prior-unknown-class": Case(
        ["train", "{db}", "--class-prior", "class 00=0.5,class 01=0.2,class 02=0.2,x=0.1"],
        "class prior names unknown class 'x'",
    ),
    "class-prior-missing-class": Case(
        ["train", "{db}", "--class-prior", "class 00=0.5,class 01=0.5"],
        "class prior does not name class 'class 02'",
    ),
    "class-prior-not-a-probability": Case(
        ["train", "{db}", "--class-prior", "class 00=-0.5,class 01=1,class 02=0.5"],
        "class prior of 'class 00' is -0.5, not a probability",
    ),
    "class-prior-not-a-number": Case(
        ["train", "{db}", "--class-prior", "class 00=x"], "class prior of 'class 00' is 'x'"
    ),
    "class-prior-malformed": Case(
        ["train", "{db}", "--class-prior", "class 00"], "not of the form label=probability"
    ),
    # outputs
    "existing-output": Case(
        [*PREDICT[:-1], "earlier_predictions", *TEST],
        "output table 'earlier_predictions' already exists",
    ),
    "output-is-an-input": Case(
        [*PREDICT[:-1], "test_tokens", *TEST], "output table 'test_tokens' already exists"
    ),
    # a Gaussian variance that would be exactly zero
    "zero-variance": Case(
        [
            "train",
            "{db}",
            "--table",
            "constant_flowers",
            "--label-column",
            "species",
            "--kind",
            "gaussian",
            "--features",
            "petal",
            "--var-smoothing",
            "0",
        ],
        "feature 'petal' has variance 0 in class 'k1'",
    ),
}


def _argv(case: Case, db: Path) -> list[str]:
    names = {"db": db, "missing": db.parent / "missing.duckdb", "garbage": db.parent / "x.txt"}
    return [a.format(**names) for a in case.args]


@pytest.fixture(scope="module")
def outcomes(template: Path) -> dict[str, tuple[int, str, str, bool, bool]]:
    """Every case run once, in this process (tests/cli.py): exit code, stdout, stderr, whether
    the database is unchanged, whether no file was created."""
    before = snapshot(template)

    def one(name: str) -> tuple[int, str, str, bool, bool]:
        folder = template.parent / name
        folder.mkdir()
        db = folder / "db.duckdb"
        shutil.copy(template, db)
        (folder / "x.txt").write_text("not a database\n")
        files = set(folder.iterdir())
        code, out, err = run(*_argv(CASES[name], db))
        created = {p for p in folder.iterdir() if not p.name.startswith("db.duckdb")} - files
        unchanged = untouched(db, template) or snapshot(db) == before
        return code, out, err, unchanged, not created

    return {name: one(name) for name in CASES}


@pytest.mark.parametrize("case", [c.param(n) for n, c in CASES.items()])
def test_bad_input_is_one_line_and_changes_nothing(case: Case, outcomes, request) -> None:
    name = request.node.callspec.id
    code, _, stderr, unchanged, nothing_created = outcomes[name]
    assert_one_line_error(code, stderr, case.message)
    assert unchanged, "the database changed"
    assert nothing_created, "a file was created"


# --- what counts as training data ------------------------------------------------------------


def _sklearn_log_proba(
    tokens: pd.DataFrame, labels: pd.DataFrame, test: pd.DataFrame, **kw: Any
) -> tuple[list, np.ndarray, np.ndarray]:
    """scikit-learn's MultinomialNB on the labeled documents (those without tokens are empty
    rows); the test documents' ids, classes and log-probabilities."""
    labeled = tokens[tokens["doc_id"].isin(labels["doc_id"]) & (tokens["count"] > 0)]
    vocab = sorted(set(labeled["word"]))
    index = {w: i for i, w in enumerate(vocab)}

    def matrix(frame: pd.DataFrame, docs: list) -> np.ndarray:
        m = np.zeros((len(docs), len(vocab)))
        row = {d: i for i, d in enumerate(docs)}
        for d, w, c in frame[["doc_id", "word", "count"]].itertuples(index=False):
            if d in row and w in index:
                m[row[d], index[w]] += c
        return m

    X = matrix(tokens, list(labels["doc_id"]))
    nb = MultinomialNB(**kw).fit(X, labels["label"].to_numpy())
    docs = sorted(set(test["doc_id"]))
    return docs, nb.classes_, nb.predict_log_proba(matrix(test, docs))


def _log_proba(model: sqlnb.Model, test: str, docs: list, classes: np.ndarray) -> np.ndarray:
    rows = model.predict_log_proba(test).fetchall()
    got = {(d, label): lp for d, label, lp in rows}
    return np.array([[got[(d, c)] for c in classes] for d in docs])


def test_fractional_counts_train_and_match_scikit_learn(con):
    rng = np.random.default_rng(11)
    tokens = pd.DataFrame(
        {
            "doc_id": rng.integers(0, 30, 400),
            "word": [f"w{i}" for i in rng.integers(0, 25, 400)],
            "count": rng.choice([0.5, 0.25, 1.5, 2.0, 0.0, 3.75], 400),
        }
    )
    labels = pd.DataFrame({"doc_id": range(30), "label": [f"c{i % 3}" for i in range(30)]})
    test = tokens.assign(doc_id=tokens["doc_id"] + 1000).sample(frac=0.5, random_state=1)
    con.register("t", tokens)
    con.register("l", labels)
    con.register("x", test)
    for name in ("t", "l", "x"):
        con.execute(f"CREATE TABLE {name}_ AS SELECT * FROM {name}")
    model = sqlnb.train(con, "t_", "l_", model="frac", alpha=0.5)
    docs, classes, expected = _sklearn_log_proba(tokens, labels, test, alpha=0.5)
    np.testing.assert_allclose(_log_proba(model, "x_", docs, classes), expected, atol=1e-9)


def test_labeled_documents_without_tokens_count_for_the_prior(con):
    tokens = pd.DataFrame(
        {"doc_id": [1, 1, 2, 3], "word": ["a", "b", "a", "c"], "count": [2, 1, 1, 4]}
    )
    # documents 4, 5 and 6 have labels and no token: empty documents of class 'y'
    labels = pd.DataFrame({"doc_id": [1, 2, 3, 4, 5, 6], "label": ["x", "x", "y", "y", "y", "y"]})
    test = pd.DataFrame({"doc_id": [9, 9, 10], "word": ["a", "c", "zzz"], "count": [1, 1, 1]})
    for name, frame in (("t", tokens), ("l", labels), ("x", test)):
        con.register("frame", frame)
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")
        con.unregister("frame")
    model = sqlnb.train(con, "t", "l", model="empty_docs")
    prior = {c["label"]: (c["n_docs"], math.exp(c["log_prior"])) for c in model.classes()}
    assert prior == {"x": (2, pytest.approx(2 / 6)), "y": (4, pytest.approx(4 / 6))}
    docs, classes, expected = _sklearn_log_proba(tokens, labels, test)
    np.testing.assert_allclose(_log_proba(model, "x", docs, classes), expected, atol=1e-9)


def test_tokens_without_a_label_are_ignored(con):
    tokens = pd.DataFrame(
        {
            "doc_id": [1, 1, 2, 3, 7, 7, 8],
            "word": ["a", "b", "a", "c", "a", "only_unlabeled", "c"],
            "count": [2, 1, 1, 4, 50, 3, 9],
        }
    )
    labels = pd.DataFrame({"doc_id": [1, 2, 3], "label": ["x", "x", "y"]})
    test = pd.DataFrame(
        {"doc_id": [9, 9, 10], "word": ["a", "only_unlabeled", "c"], "count": [1, 5, 1]}
    )
    for name, frame in (("t", tokens), ("l", labels), ("x", test)):
        con.register("frame", frame)
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")
        con.unregister("frame")
    model = sqlnb.train(con, "t", "l", model="unlabeled")
    assert model.info["n_docs"] == 3 and model.info["n_features"] == 3  # a, b, c
    docs, classes, expected = _sklearn_log_proba(tokens, labels, test)
    np.testing.assert_allclose(_log_proba(model, "x", docs, classes), expected, atol=1e-9)
    # the same model as without the unlabeled documents' tokens
    con.execute("CREATE TABLE t2 AS SELECT * FROM t WHERE doc_id IN (SELECT doc_id FROM l)")
    again = sqlnb.train(con, "t2", "l", model="without")
    np.testing.assert_allclose(_log_proba(again, "x", docs, classes), expected, atol=1e-9)


# --- the same refusals through the Python API, on every engine -------------------------------

NAN = {
    "duckdb": "CAST('nan' AS DOUBLE)",
    "postgres": "CAST('NaN' AS DOUBLE PRECISION)",
    "spark": "CAST('NaN' AS DOUBLE)",
    "clickhouse": "nan",
}
INF = {
    "duckdb": "CAST('inf' AS DOUBLE)",
    "postgres": "CAST('Infinity' AS DOUBLE PRECISION)",
    "spark": "CAST('Infinity' AS DOUBLE)",
    "sqlite": "9e999",
    "clickhouse": "inf",
}


def raw(e: Any, sql: str) -> list[tuple]:
    """Plain SQL on an engine's own connection (test setup and snapshots)."""
    if e.name == "spark":
        return [tuple(r) for r in e.db.connection.sql(sql).collect()]
    if e.name == "clickhouse":
        return [tuple(r) for r in e.db.connection.query(sql).result_rows]
    cursor = e.db.connection.execute(sql)
    return list(cursor.fetchall()) if cursor.description else []


def engine_snapshot(e: Any) -> dict[str, list[str]]:
    """Every table of the engine's namespace, with its sorted contents."""
    q = "`" if e.name in ("spark", "clickhouse") else '"'
    if e.name == "sqlite":
        names = [
            r[0]
            for r in raw(
                e,
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
            )
        ]
    elif e.name == "postgres":
        names = [
            r[0]
            for r in raw(
                e,
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema()",
            )
        ]
    elif e.name == "duckdb":
        names = [r[0] for r in raw(e, "SELECT table_name FROM duckdb_tables()")]
    elif e.name == "clickhouse":
        names = [
            r[0]
            for r in raw(e, "SELECT name FROM system.tables WHERE database = currentDatabase()")
        ]
    else:
        names = [r[1] for r in raw(e, "SHOW TABLES") if not r[2]]
    return {n: sorted(map(repr, raw(e, f"SELECT * FROM {q}{n}{q}"))) for n in sorted(names)}


def load_inputs(e: Any) -> None:
    """The small corpus, a trained model 'm', a table model, and bad inputs made in SQL."""
    corpus = random_corpus(3, n_classes=3, vocab=60, n_train=40, n_test=10, doc_length=10)
    e.load("tokens", corpus.train_tokens)
    e.load("labels", corpus.train_labels)
    e.load("test_tokens", corpus.test_tokens)
    e.load("int_labels", corpus.test_labels.assign(label=1))
    flowers = pd.DataFrame(
        {
            "id": range(30),
            "petal": [2.5 if i % 3 == 1 else (i % 3) * 1.5 + (i % 7) * 0.1 for i in range(30)],
            "species": [f"k{i % 3}" for i in range(30)],
        }
    )
    e.load("flowers", flowers)
    bad = {
        "null_doc_tokens": "SELECT CASE WHEN doc_id < 2 THEN NULL ELSE doc_id END AS doc_id, "
        "word, count FROM tokens",
        "null_word_tokens": "SELECT doc_id, CASE WHEN doc_id = 0 THEN NULL ELSE word END AS "
        "word, count FROM tokens",
        "null_label_labels": "SELECT doc_id, CASE WHEN doc_id < 3 THEN NULL ELSE label END AS "
        "label FROM labels",
        "negative_tokens": "SELECT doc_id, word, CASE WHEN doc_id = 0 THEN -1 ELSE count END "
        "AS count FROM tokens",
        "empty_labels": "SELECT * FROM labels WHERE 1 = 0",
        "two_labels": "SELECT * FROM labels UNION ALL SELECT doc_id, 'other' AS label "
        "FROM labels WHERE doc_id = 5",
        "text_count_tokens": "SELECT doc_id, word, CAST(count AS "
        + {"spark": "STRING", "clickhouse": "Nullable(String)"}.get(e.name, "VARCHAR")
        + ") AS count FROM tokens",
    }
    if e.name in NAN:
        bad["nan_tokens"] = (
            f"SELECT doc_id, word, CASE WHEN doc_id = 0 THEN {NAN[e.name]} ELSE count END "
            "AS count FROM tokens"
        )
    bad["inf_tokens"] = (
        f"SELECT doc_id, word, CASE WHEN doc_id = 0 THEN {INF[e.name]} ELSE count END "
        "AS count FROM tokens"
    )
    for name, query in bad.items():
        raw(e, f"CREATE TABLE {name} AS {query}")
    sqlnb.train(e.db, "tokens", "labels", model="m")
    sqlnb.load(e.db, "m").predict_to("test_tokens", "earlier")


def _train(data: Any = "tokens", labels: Any = "labels", **kw: Any) -> Any:
    return lambda db: sqlnb.train(db, data, labels, model="m", **kw)


GAUSSIAN_ZERO = sqlnb.Table("flowers", "id", "species")
API_CASES: dict[str, tuple[Any, str]] = {
    "null-doc-id": (_train("null_doc_tokens"), "rows with a NULL document id"),
    "null-word": (_train("null_word_tokens"), "rows with a NULL word"),
    "null-label": (_train(labels="null_label_labels"), "has 3 rows with a NULL label"),
    "negative-count": (_train("negative_tokens"), "negative counts"),
    "nan-count": (_train("nan_tokens"), "counts that are NULL, NaN or infinite"),
    "infinite-count": (_train("inf_tokens"), "counts that are NULL, NaN or infinite"),
    "text-counts": (_train("text_count_tokens"), "holds text"),
    "empty-labels": (_train(labels="empty_labels"), "is empty"),
    "two-labels": (_train(labels="two_labels"), "gives document 5 two different labels"),
    "missing-table": (_train("nope"), "table 'nope' does not exist"),
    "missing-column": (_train(sqlnb.Tokens("tokens", word="nope")), "no word column 'nope'"),
    "negative-alpha": (_train(alpha=-1.0), "alpha must be a finite number >= 0"),
    "class-prior": (
        _train(class_prior={"class 00": 0.5, "class 01": 0.2, "class 02": 0.2}),
        "class prior sums to 0.9",
    ),
    "class-prior-unknown": (
        _train(class_prior={"class 00": 0.5, "class 01": 0.3, "class 02": 0.1, "x": 0.1}),
        "unknown class 'x'",
    ),
    "existing-output": (
        lambda db: sqlnb.load(db, "m").predict_to("test_tokens", "earlier"),
        "output table 'earlier' already exists",
    ),
    "unknown-model": (lambda db: sqlnb.load(db, "nope"), "no model named 'nope'"),
    "zero-variance": (
        lambda db: sqlnb.train(db, GAUSSIAN_ZERO, kind="gaussian", var_smoothing=0.0),
        "feature 'petal' has variance 0 in class 'k1'",
    ),
    "label-type": (
        lambda db: sqlnb.load(db, "m").evaluate("test_tokens", "int_labels"),
        "but model 'm' was trained on VARCHAR labels",
    ),
}
API_XFAIL: dict[tuple[str, str], str] = {
    ("spark", "zero-variance"): "Spark has no transactions: a zero variance is found after the "
    "new counts are written, and nothing rolls them back (documented in the README)",
    ("clickhouse", "zero-variance"): "ClickHouse has no transactions: as Spark (README)",
}


@pytest.fixture(scope="module", params=["duckdb", "sqlite", "postgres", "spark", "clickhouse"])
def api_engine(request) -> Iterator[Any]:
    from engines import open_engine

    for e in open_engine(request.param):
        load_inputs(e)
        yield e


@pytest.mark.parametrize("case", list(API_CASES))
def test_python_api_refuses_bad_input_and_changes_nothing(api_engine, case, request):
    e = api_engine
    call, message = API_CASES[case]
    if case == "nan-count" and e.name == "sqlite":
        pytest.skip("SQLite has no NaN (it stores NaN as NULL, refused as 'null-count')")
    if case == "text-counts" and e.name == "sqlite":
        pytest.skip("SQLite columns have no types (documented)")
    if (e.name, case) in API_XFAIL:
        request.applymarker(pytest.mark.xfail(strict=True, reason=API_XFAIL[(e.name, case)]))
    before = engine_snapshot(e)
    with pytest.raises(SqlnbError) as error:
        call(e.db)
    assert message in str(error.value) and "\n" not in str(error.value), str(error.value)
    assert engine_snapshot(e) == before


@pytest.mark.spark
def test_spark_refuses_bad_input_and_changes_nothing():
    """Two cases on Spark (slow: a training takes seconds there)."""
    from engines import open_engine

    for e in open_engine("spark"):
        corpus = random_corpus(3, n_classes=2, vocab=20, n_train=10, n_test=4, doc_length=5)
        e.load("tokens", corpus.train_tokens)
        e.load("labels", corpus.train_labels)
        raw(
            e,
            "CREATE TABLE two_labels AS SELECT * FROM labels UNION ALL "
            "SELECT doc_id, 'other' AS label FROM labels WHERE doc_id = 5",
        )
        raw(
            e,
            "CREATE TABLE null_word_tokens AS SELECT doc_id, CASE WHEN doc_id = 0 THEN NULL "
            "ELSE word END AS word, count FROM tokens",
        )
        before = engine_snapshot(e)
        for call, message in (
            (_train(labels="two_labels"), "gives document 5 two different labels"),
            (_train("null_word_tokens"), "rows with a NULL word"),
        ):
            with pytest.raises(SqlnbError, match=message):
                call(e.db)
        assert engine_snapshot(e) == before


# --- read-only and locked databases ----------------------------------------------------------


def _without_root_override() -> tuple[str, ...]:
    """A command prefix under which chmod 444 binds: root ignores file modes unless its
    CAP_DAC_OVERRIDE is dropped (setpriv, from util-linux)."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a file mode cannot make a file read-only")
    return (setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--")


@pytest.mark.process
def test_read_only_file_reads_and_refuses_to_write_in_one_line(template: Path, tmp_path: Path):
    db = tmp_path / "ro.duckdb"
    shutil.copy(template, db)
    before = snapshot(db)
    db.chmod(0o444)
    tmp_path.chmod(0o555)  # no WAL file either
    # processes: setpriv drops root's override of file modes for a process it starts
    prefix = _without_root_override()
    try:
        for args in (
            ["train", str(db), "--model", "m"],
            ["train", str(db), "--model", "new"],
            ["predict", str(db), "--model", "m", *TEST, "--output", "new_out"],
            ["drop", str(db), "--model", "m"],
        ):
            code, _, stderr = cli.process(*args, prefix=prefix, timeout=TIMEOUT)
            assert_one_line_error(code, stderr, f"database '{db}' is read-only")
        # reading still works
        code, stdout, stderr = cli.process("models", str(db), prefix=prefix, timeout=TIMEOUT)
        assert code == 0 and "m_int" in stdout, stderr
        code, stdout, stderr = cli.process(
            "evaluate", str(db), "--model", "m", *TEST, "--labels", "test_labels", prefix=prefix
        )
        assert code == 0 and "accuracy" in stdout, stderr
    finally:
        tmp_path.chmod(0o755)
        db.chmod(0o644)
    assert snapshot(db) == before


def test_database_opened_read_only_refuses_to_write(template: Path, tmp_path: Path):
    db = tmp_path / "ro.duckdb"
    shutil.copy(template, db)
    before = snapshot(db)
    with sqlnb.connect(str(db), read_only=True) as database:
        with pytest.raises(SqlnbError, match=r"is read-only \(it was opened read-only\)"):
            sqlnb.train(database, "tokens", "labels", model="m")
        with pytest.raises(SqlnbError, match="is read-only"):
            sqlnb.load(database, "m").predict_to("test_tokens", "o")
        assert sqlnb.load(database, "m").evaluate("test_tokens", "test_labels")["n_docs"] == 42
    with (
        duckdb.connect(str(db), read_only=True) as con,
        pytest.raises(SqlnbError, match="the database is read-only"),
    ):
        sqlnb.train(con, "tokens", "labels", model="m")
    assert snapshot(db) == before


@pytest.fixture
def holder(template: Path, tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen]]:
    """A copy of the template that another process holds open for writing."""
    db = tmp_path / "held.duckdb"
    shutil.copy(template, db)
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; con = duckdb.connect(sys.argv[1]); "
            "print('open', flush=True); time.sleep(120)",
            str(db),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline() == "open\n"
    yield db, process
    process.kill()
    process.wait()
    process.stdout.close()


def test_locked_database_fails_at_once_in_one_line(holder, template: Path):
    db, process = holder
    commands = [
        ["train", str(db), "--model", "m"],
        ["predict", str(db), "--model", "m", *TEST, "--output", "o"],
        ["evaluate", str(db), "--model", "m", *TEST, "--labels", "test_labels"],
        ["models", str(db)],
        ["sql", "train", str(db)],
    ]
    results = [run(*args) for args in commands]  # the holder is the other process
    for code, _, stderr in results:
        assert_one_line_error(
            code,
            stderr,
            f"database '{db}' is locked: another process (PID {process.pid}) is using it",
        )
    process.kill()
    process.wait()
    assert snapshot(db) == snapshot(template)


def test_wait_waits_for_a_locked_database(template: Path, tmp_path: Path):
    """--wait SECONDS tries again until the other process lets the file go."""
    db = tmp_path / "held.duckdb"
    shutil.copy(template, db)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
            "print('open', flush=True); time.sleep(1.5)",
            str(db),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "open\n"
    code, out, err = run("models", str(db), "--wait", "20")
    holder.wait()
    holder.stdout.close()
    assert code == 0, err
    assert "m_int" in out


def test_leftovers_of_killed_processes_are_removed(template: Path, tmp_path: Path):
    """Folders named after a process that is gone (kill -9 runs no clean-up) go at the next
    run that writes there; those of live processes stay."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    target = tmp_path / "model"
    stale = [tmp_path / f".model.{dead.pid}.partial", tmp_path / f".model.{dead.pid}.old"]
    alive = tmp_path / f".model.{os.getppid()}.partial"
    for folder in (*stale, alive):
        folder.mkdir()
        (folder / "rows.csv").write_text("x")
    code, _, err = run("export", str(template), "--model", "m", "--to", str(target))
    assert code == 0, err
    assert not any(p.exists() for p in stale)
    assert alive.exists()


# --- failure never destroys a model ----------------------------------------------------------

# Large enough that training takes a second or more: 2M token rows, 200,003 words, 20 classes
# (4M rows of log theta).
BIG = [
    """CREATE TABLE big_tokens AS SELECT i // 20 AS doc_id, 'w' || ((i * 7919) % 200003) AS
       word, 1 + i % 3 AS count FROM range(2000000) AS r(i)""",
    "CREATE TABLE big_labels AS SELECT d AS doc_id, 'c' || (d % 20) AS label "
    "FROM range(100000) AS r(d)",
]
RETRAIN = ["--tokens", "big_tokens", "--labels", "big_labels", "--model", "m"]


def fingerprint(path: Path) -> dict[str, tuple]:
    """Every table's row count and a hash of its rows (the catalog's and the versions' rows
    without their timestamps: two runs of the same training differ only there)."""
    with duckdb.connect(str(path)) as con:  # read-write: replays a WAL a kill left
        tables = con.execute("SELECT table_name FROM duckdb_tables()").fetchall()
        prints = {}
        for (table,) in tables:
            columns = [
                f'"{c}"'
                for (c,) in con.execute(
                    "SELECT column_name FROM duckdb_columns() WHERE table_name = ? "
                    "AND NOT (column_name = 'trained_at' OR (table_name = 'sqlnb_versions' "
                    "AND column_name = 'created')) ORDER BY column_index",
                    [table],
                ).fetchall()
            ]
            prints[table] = con.execute(
                f'SELECT COUNT(*), SUM(hash({", ".join(columns)})) FROM "{table}"'
            ).fetchone()
        return prints


def predictions(path: Path) -> list[tuple]:
    with duckdb.connect(str(path), read_only=True) as con:
        rows = sqlnb.load(con, "m").predict_proba("test_tokens").fetchall()
    return sorted(rows)


def same(left: list[tuple], right: list[tuple]) -> bool:
    """The same documents and classes, probabilities equal to 1e-12: DuckDB sums in
    parallel, so the last bits of a probability can differ between two runs."""
    return len(left) == len(right) and all(
        a[:2] == b[:2] and abs(a[2] - b[2]) <= 1e-12 for a, b in zip(left, right)
    )


@dataclass
class Big:
    template: Path
    old: dict[str, tuple]  # the fingerprint before retraining
    new: dict[str, tuple]  # after a complete retraining
    old_predictions: list[tuple]
    new_predictions: list[tuple]
    seconds: float  # from opening the database to the end of a complete retraining


def _wait_until_open(process: subprocess.Popen, path: Path, timeout: float = 30) -> float:
    """Wait until the process has the database file open; the time that took."""
    start, target = time.monotonic(), os.path.realpath(path)
    while time.monotonic() - start < timeout:
        if process.poll() is not None:
            raise AssertionError(f"exited with {process.returncode} before opening {path}")
        try:
            fds = os.listdir(f"/proc/{process.pid}/fd")
            if any(os.path.realpath(f"/proc/{process.pid}/fd/{fd}") == target for fd in fds):
                return time.monotonic() - start
        except OSError:
            pass
        time.sleep(0.005)
    raise AssertionError(f"{path} was not opened within {timeout} s")


def _train_big(path: Path, *extra: str) -> subprocess.Popen:
    """A training in a process of its own: the tests kill it, interrupt it, or read the
    database while it holds it."""
    return cli.popen("train", str(path), *RETRAIN, *extra)


@pytest.fixture(scope="module")
def big(template: Path, tmp_path_factory: pytest.TempPathFactory) -> Big:
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to see when a process has opened the database")
    folder = tmp_path_factory.mktemp("big")
    path = folder / "big.duckdb"
    shutil.copy(template, path)
    with duckdb.connect(str(path)) as con:
        for statement in BIG:
            con.execute(statement)
    old, old_predictions = fingerprint(path), predictions(path)
    done = folder / "done.duckdb"
    shutil.copy(path, done)
    process = _train_big(done)
    _wait_until_open(process, done)
    start = time.monotonic()
    _, stderr = process.communicate(timeout=TIMEOUT)
    seconds = time.monotonic() - start
    assert process.returncode == 0, stderr
    new, new_predictions = fingerprint(done), predictions(done)
    assert new_predictions != old_predictions
    return Big(path, old, new, old_predictions, new_predictions, seconds)


@pytest.mark.process
def test_sigkill_during_training_leaves_the_old_model_or_the_new(big: Big, tmp_path: Path):
    rng = random.Random(6)
    outcomes = []
    for i in range(5):
        db = tmp_path / f"killed{i}.duckdb"
        shutil.copy(big.template, db)
        process = _train_big(db)
        _wait_until_open(process, db)
        time.sleep(rng.uniform(0, big.seconds))
        running = process.poll() is None
        process.kill()
        process.communicate()
        state = fingerprint(db)
        assert state in (big.old, big.new), f"kill {i}: neither the old model nor the new"
        expected = big.old_predictions if state == big.old else big.new_predictions
        assert same(predictions(db), expected)
        outcomes.append(("old" if state == big.old else "new", running))
    assert any(state == "old" and running for state, running in outcomes), outcomes


@pytest.mark.process
def test_ctrl_c_stops_training_promptly_and_changes_nothing(big: Big, tmp_path: Path):
    """SIGINT without a terminal (stderr is a pipe, so no progress bar): once right after
    the database is open, once a quarter into the training (a fraction of the fixture's own
    measured retraining, so a faster machine or a faster sqlnb does not end it first)."""
    for i, delay in enumerate((0.05, big.seconds / 4)):
        db = tmp_path / f"interrupted{i}.duckdb"
        shutil.copy(big.template, db)
        process = _train_big(db)
        _wait_until_open(process, db)
        time.sleep(delay)
        assert process.poll() is None, "the training ended before it could be interrupted"
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        try:
            _, stderr = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            raise AssertionError("Ctrl-C did not stop the training within 10 s") from None
        took = time.monotonic() - sent
        assert process.returncode == 130, stderr
        assert stderr == "Interrupted: the database is as it was.\n"
        assert took < 2.0, f"stopped {took:.2f} s after Ctrl-C"
        assert fingerprint(db) == big.old
        assert same(predictions(db), big.old_predictions)


@pytest.mark.process
def test_reader_while_another_process_trains_sees_old_or_new_or_locked(big: Big, tmp_path: Path):
    db = tmp_path / "busy.duckdb"
    shutil.copy(big.template, db)
    trainer = _train_big(db)
    _wait_until_open(trainer, db)
    reads = []
    while trainer.poll() is None and len(reads) < 10:
        reads.append(run("predict", str(db), "--model", "m", *TEST, "--output", f"r{len(reads)}"))
    _, trained = trainer.communicate(timeout=TIMEOUT)
    assert trainer.returncode == 0, trained
    assert reads, "no read while the training ran"
    for i, (code, _, stderr) in enumerate(reads):
        if code == 1:
            assert_one_line_error(code, stderr, "is locked: another process")
        else:
            assert code == 0, stderr
            with duckdb.connect(str(db), read_only=True) as con:
                got = con.execute(f"SELECT * FROM r{i}").fetchall()
            # every prediction is one model's whole: the old one's or the new one's
            models = [
                {(d, c): p for d, c, p in m} for m in (big.old_predictions, big.new_predictions)
            ]
            assert any(
                all(abs(m.get((d, c), -1.0) - p) <= 1e-12 for d, c, p in got) for m in models
            ), f"read {i} mixes the old model and the new"
    assert same(predictions(db), big.new_predictions)


@pytest.mark.process
def test_two_trainings_at_once_the_second_fails_in_one_line_and_nothing_breaks(
    big: Big, tmp_path: Path
):
    db = tmp_path / "two.duckdb"
    shutil.copy(big.template, db)
    first = _train_big(db)
    _wait_until_open(first, db)
    code, _, stderr = run("train", str(db), "--model", "m", "--alpha", "0.5")
    _, first_err = first.communicate(timeout=TIMEOUT)
    assert first.returncode == 0, first_err
    if code == 1:  # the usual case: the second found the file in use
        assert_one_line_error(code, stderr, "is locked: another process")
        assert fingerprint(db) == big.new
    else:  # the first had finished before the second started: it retrained after it
        assert code == 0, stderr
        retrained = predictions(db)
        assert not same(retrained, big.old_predictions)
        assert not same(retrained, big.new_predictions)


# --- concurrency inside one process (DuckDB connections of one database) and on PostgreSQL --


def _two_corpora(e: Any) -> None:
    a = random_corpus(1, n_classes=3, vocab=500, n_train=300, doc_length=40)
    b = random_corpus(2, n_classes=4, vocab=500, n_train=300, doc_length=40)
    e.load("ta", a.train_tokens)
    e.load("la", a.train_labels)
    e.load("tb", b.train_tokens)
    e.load("lb", b.train_labels)
    e.load("test", a.test_tokens)


def _predicted(db: Any) -> list[tuple]:
    rows = sqlnb.load(db, "m").predict("test")
    rows = rows.fetchall() if hasattr(rows, "fetchall") else rows
    return sorted(rows)


def _one_of(rows: list[tuple], *models: list[tuple]) -> bool:
    """The predictions of one of the models: the same labels, probabilities within 1e-9
    (parallel sums make the last bits vary between runs; a mix of two models is far off)."""
    return any(
        len(rows) == len(m)
        and all(d == e and a == b and abs(p - q) <= 1e-9 for (d, a, p), (e, b, q) in zip(rows, m))
        for m in models
    )


@pytest.fixture(params=["duckdb", "postgres"])
def shared(request, tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    """An engine with two corpora, and a way to open another connection to the same data."""
    from engines import POSTGRES_URL, Engine, open_engine

    if request.param == "duckdb":
        con = duckdb.connect(str(tmp_path / "shared.duckdb"))
        e = Engine("duckdb", sqlnb.connect(con))
        _two_corpora(e)
        yield e, lambda: sqlnb.connect(con.cursor())
        con.close()
        return
    for e in open_engine("postgres"):
        import psycopg

        schema = raw(e, "SELECT current_schema()")[0][0]

        def another(schema: str = schema) -> Any:
            connection = psycopg.connect(POSTGRES_URL, autocommit=True)
            connection.execute(f"SET search_path TO {schema}")
            return sqlnb.connect(connection)

        _two_corpora(e)
        yield e, another


def test_a_reader_sees_the_old_model_or_the_new_never_a_mix(shared):
    e, another = shared
    sqlnb.train(e.db, "ta", "la", model="m")
    first = _predicted(e.db)
    sqlnb.train(e.db, "tb", "lb", model="m")
    second = _predicted(e.db)
    assert not _one_of(first, second)
    stop, seen, failures = threading.Event(), [], []
    reader_db = another()

    def read() -> None:
        while not stop.is_set():
            try:
                seen.append(_predicted(reader_db))
            except Exception as error:  # reported below, unless it is the one allowed
                # The model changed between load and predict: load it again. A lazy DuckDB
                # relation raises it as DuckDB's own error, when the query runs.
                if "retrained or dropped after it was loaded" in str(error):
                    continue
                failures.append(error)
                return

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for i in range(6):
            sqlnb.train(e.db, *(("ta", "la") if i % 2 == 0 else ("tb", "lb")), model="m")
    finally:
        stop.set()
        reader.join()
    reader_db.close()
    assert not failures, failures
    assert seen and all(_one_of(s, first, second) for s in seen)


@pytest.mark.slow  # 20-35 s: many retrainings (issue 36: out of the quick loop, still in CI)
def test_an_export_during_retrainings_holds_one_model(shared, tmp_path):
    """An export while another connection retrains holds one training's catalog row and
    counts, never one's row with the other's counts (PostgreSQL: a REPEATABLE READ snapshot)."""
    from sqlnb.files import export_model, import_model

    e, another = shared
    versions = {}
    for tokens, labels in (("ta", "la"), ("tb", "lb")):
        sqlnb.train(e.db, tokens, labels, model="m")
        versions[tokens] = _counts(e.db, "m")
    stop, exported, failures = threading.Event(), [], []
    exporter = another()

    def export() -> None:
        i = 0
        while not stop.is_set():
            target = tmp_path / f"e{i}"
            try:
                export_model(exporter, "m", target)
            except Exception as error:
                if "retrained while it was exported" not in str(error):
                    failures.append(error)
                    return
                continue
            exported.append(target)
            i += 1

    thread = threading.Thread(target=export)
    thread.start()
    try:
        for i in range(8):
            sqlnb.train(e.db, *(("ta", "la") if i % 2 == 0 else ("tb", "lb")), model="m")
    finally:
        stop.set()
        thread.join()
    exporter.close()
    assert not failures, failures
    assert exported
    # Every exported folder is checked: imported, or byte for byte the same files as one that
    # was (an import reads nothing but the files). Most of the exports repeat the one before:
    # importing each again cost 40 of this test's 50 s (issue 36).
    mem = sqlnb.connect(duckdb.connect())
    checked: dict[tuple, tuple] = {}
    for i, folder in enumerate(exported):
        files = tuple((f.name, f.read_bytes()) for f in sorted(folder.iterdir()))
        if files not in checked:
            import_model(mem, folder, f"x{i}")
            checked[files] = _counts(mem, f"x{i}")
        assert checked[files] in versions.values()


def _counts(db: Any, model: str) -> tuple:
    """A model's classes and word counts, and its catalog's number of classes."""
    from sqlglot import exp

    rows = []
    for table in ("sqlnb_classes", "sqlnb_word_counts"):
        from test_engines import columns_of

        query = exp.select(*columns_of(table)).from_(table)
        query = query.where(exp.column("model").eq(exp.convert(model)))
        rows.append(sorted(tuple(r[1:]) for r in db.fetch(query)))
    return (*rows, sqlnb.load(db, model).n_classes)


def test_a_prediction_built_before_a_retraining_refuses_to_run(shared):
    """The prediction query depends on the loaded model (its number of classes): built for a
    model that is retrained (3 classes, then 4) before it runs, it fails with one clear line,
    and reads nothing of the new model. The query checks this in the snapshot it reads."""
    e, _ = shared
    sqlnb.train(e.db, "ta", "la", model="m")
    stale = sqlnb.load(e.db, "m")
    if e.name == "duckdb":
        relation = stale.predict("test")  # lazy: built now, run below
        sqlnb.train(e.db, "tb", "lb", model="m")
        with pytest.raises(duckdb.Error, match="retrained or dropped after it was loaded"):
            relation.fetchall()
    else:
        sqlnb.train(e.db, "tb", "lb", model="m")
    for act in (
        lambda: stale.predict("test"),
        lambda: stale.predict_to("test", "out"),
        lambda: stale.evaluate("test", "la"),
    ):
        with pytest.raises(SqlnbError, match="retrained or dropped after it was loaded"):
            act()
    assert len({label for _, label, _ in _predicted(e.db)}) >= 1


def _train_at_once(
    another: Any, barrier: threading.Barrier, errors: list, tokens: str, labels: str
) -> None:
    db = another()
    barrier.wait()
    try:
        sqlnb.train(db, tokens, labels, model="m")
    except BaseException as error:
        errors.append(error)
    finally:
        db.close()


def test_two_trainings_at_once_in_one_process_fail_cleanly_or_wait(shared):
    """DuckDB refuses the second (a write conflict, one line); PostgreSQL makes it wait."""
    e, another = shared
    sqlnb.train(e.db, "ta", "la", model="m")
    first = _predicted(e.db)
    sqlnb.train(e.db, "tb", "lb", model="m")
    second = _predicted(e.db)
    for _ in range(3):
        errors: list[BaseException] = []
        barrier = threading.Barrier(2)
        threads = [
            threading.Thread(target=_train_at_once, args=(another, barrier, errors, *args))
            for args in (("ta", "la"), ("tb", "lb"))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(errors) <= 1, errors
        for error in errors:
            assert isinstance(error, SqlnbError) and "\n" not in str(error), error
            assert "at the same time" in str(error)
        assert raw(e, "SELECT COUNT(*) FROM sqlnb_models WHERE model = 'm'") == [(1,)]
        assert _one_of(_predicted(e.db), first, second)


def test_a_loaded_model_retrained_as_another_kind_never_predicts_a_mix(con):
    """A Model object outlives its catalog row: after another connection retrains the name as
    another kind, it must refuse (or follow the new model), not run its old kind's query
    over the new kind's tables."""
    corpus = random_corpus(4, n_classes=3, vocab=200)
    corpus.load(con)
    stale = sqlnb.train(con, "train_tokens", "train_labels", model="m")
    sqlnb.train(con.cursor(), "train_tokens", "train_labels", model="m", kind="complement")
    fresh = sorted(sqlnb.load(con, "m").predict_proba("test_tokens").fetchall())
    try:
        got = sorted(stale.predict_proba("test_tokens").fetchall())
    except SqlnbError as error:
        assert "retrained" in str(error)
        return
    assert got == fresh


# --- names are never code --------------------------------------------------------------------

HOSTILE = [
    'x"; DROP TABLE sentinel; --',
    "'; DELETE FROM sentinel; --",
    "a' OR '1'='1",
    "/* comment */",
    "-- comment",
    "$tokens",
    "?",
    "%s",
    "{model}",
    "`back`",
    "[bracket]",
    "Ünïcödé 名前 🙂",
    " leading and trailing ",
    "tab\there",
    "new\nline",
    "SELECT",
    "\\",
    # sqlnb's own column names and the aliases of its queries
    "doc_id",
    "word",
    "count",
    "label",
    "class_id",
    "model",
    "s",
    "t",
    "l",
    "c",
]
TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    min_size=1,
    max_size=8,
)
NAME = st.one_of(st.sampled_from(HOSTILE), TEXT)
TABLE_NAME = NAME.filter(lambda n: "." not in n)


def _writable(name: str) -> bool:
    """A model name sqlnb writes: not only spaces, without the versions' mark (\x1f)."""
    return bool(name.strip()) and "\x1f" not in name


def _folded(name: str) -> str:
    return name.casefold().lower()


def _reserved(name: str) -> bool:
    return _folded(name).startswith(("sqlnb_", "sqlite_")) or _folded(name) == "sentinel"


def _distinct(names: list[str]) -> bool:
    """Distinct however an engine folds case (DuckDB and SQLite ignore it)."""
    return len({_folded(n) for n in names}) == len({n.lower() for n in names}) == len(names)


@st.composite
def named_corpus(draw: Any) -> dict[str, Any]:
    tables = draw(
        st.lists(TABLE_NAME.filter(lambda n: not _reserved(n)), min_size=4, max_size=4).filter(
            _distinct
        )
    )
    token_columns = draw(st.lists(NAME, min_size=3, max_size=3).filter(_distinct))
    label_columns = draw(st.lists(NAME, min_size=2, max_size=2).filter(_distinct))
    labels = draw(st.lists(NAME, min_size=2, max_size=3, unique=True))
    words = draw(st.lists(NAME, min_size=2, max_size=6, unique=True))
    seed = draw(st.integers(0, 2**16))
    rng = random.Random(seed)
    docs = list(range(8))
    doc_labels = [(d, labels[d % len(labels)]) for d in docs]
    tokens = [(d, w, rng.choice([1, 2, 3])) for d in docs for w in rng.sample(words, 2)]
    test = [(100 + d, w, rng.choice([1, 2])) for d in range(3) for w in rng.sample(words, 2)]
    return {
        "tables": tables,  # tokens, labels, test, output
        "token_columns": token_columns,  # doc, word, count
        "label_columns": label_columns,  # doc, label
        "model": draw(NAME.filter(_writable)),  # a name check_name refuses is tested elsewhere
        "tokens": tokens,
        "labels": doc_labels,
        "test": test,
    }


def _q(name: str, engine: str) -> str:
    if engine == "spark":
        return "`" + name.replace("`", "``") + "`"
    return '"' + name.replace('"', '""') + '"'


def _connect(engine: str) -> tuple[Any, Any]:
    """A fresh connection, and a function that closes it (and cleans up)."""
    if engine == "duckdb":
        con = duckdb.connect()
        return con, con.close
    if engine == "sqlite":
        import sqlite3

        con = sqlite3.connect(":memory:", isolation_level=None)
        return con, con.close
    import psycopg
    from engines import POSTGRES_URL, unavailable

    try:
        con = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3)
    except psycopg.Error as error:
        unavailable(f"no PostgreSQL at {POSTGRES_URL}: {str(error).strip()[:80]}")
    schema = f"sqlnb_names_{os.getpid()}"
    con.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    con.execute(f"CREATE SCHEMA {schema}")
    con.execute(f"SET search_path TO {schema}")

    def close() -> None:
        con.execute(f"DROP SCHEMA {schema} CASCADE")
        con.close()

    return con, close


def _tables(con: Any, engine: str) -> set[str]:
    query = {
        "duckdb": "SELECT table_name FROM duckdb_tables()",
        "sqlite": "SELECT name FROM sqlite_master "
        "WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        "postgres": "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = current_schema()",
    }[engine]
    return {r[0] for r in con.execute(query).fetchall()}


def _create(con: Any, engine: str, table: str, columns: list[str], rows: list[tuple]) -> None:
    types = {3: ["BIGINT", "TEXT", "DOUBLE PRECISION"], 2: ["BIGINT", "TEXT"]}[len(columns)]
    spec = ", ".join(f"{_q(c, engine)} {t}" for c, t in zip(columns, types))
    con.execute(f"CREATE TABLE {_q(table, engine)} ({spec})")
    mark = "%s" if engine == "postgres" else "?"
    target = _q(table, engine).replace("%", "%%") if engine == "postgres" else _q(table, engine)
    insert = f"INSERT INTO {target} VALUES ({', '.join([mark] * len(columns))})"
    if engine == "postgres":
        with con.cursor() as cursor:
            cursor.executemany(insert, rows)
    else:
        con.executemany(insert, rows)


def _contents(con: Any, engine: str, table: str) -> list[str]:
    return sorted(map(repr, con.execute(f"SELECT * FROM {_q(table, engine)}").fetchall()))


def _reference(c: dict[str, Any]) -> dict[int, tuple[float, set[str]]]:
    """scikit-learn on the same corpus: per test document, the top probability and the
    labels that reach it (ties are broken by each engine's sort order of the labels)."""
    words = sorted({w for _, w, _ in c["tokens"]})
    column = {w: i for i, w in enumerate(words)}
    X = np.zeros((len(c["labels"]), len(words)))
    row = {d: i for i, (d, _) in enumerate(c["labels"])}
    for d, w, n in c["tokens"]:
        X[row[d], column[w]] += n
    nb = MultinomialNB().fit(X, np.array([label for _, label in c["labels"]], dtype=object))
    test_docs = sorted({d for d, _, _ in c["test"]})
    T = np.zeros((len(test_docs), len(words)))
    for d, w, n in c["test"]:
        if w in column:  # words outside the training vocabulary are ignored
            T[test_docs.index(d), column[w]] += n
    result = {}
    for d, p in zip(test_docs, nb.predict_proba(T)):
        top = p.max()
        result[d] = (top, {k for k, q in zip(nb.classes_, p) if q > top - 1e-9})
    return result


@pytest.mark.slow  # 25 hypothesis examples, 20-25 s on DuckDB alone (issue 36)
@pytest.mark.parametrize("engine", ["duckdb", "sqlite", "postgres"])
@settings(
    max_examples=25, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(c=named_corpus())
def test_names_are_never_code(engine: str, c: dict[str, Any]) -> None:
    con, close = _connect(engine)
    try:
        tokens, labels, test, output = c["tables"]
        doc, word, count = c["token_columns"]
        label_doc, label = c["label_columns"]
        con.execute(f"CREATE TABLE sentinel (x {'TEXT'})")
        con.execute("INSERT INTO sentinel VALUES ('still here')")
        _create(con, engine, tokens, [doc, word, count], c["tokens"])
        _create(con, engine, labels, [label_doc, label], c["labels"])
        _create(con, engine, test, [doc, word, count], c["test"])
        before = {t: _contents(con, engine, t) for t in _tables(con, engine)}

        model = sqlnb.train(
            con,
            sqlnb.Tokens(tokens, doc=doc, word=word, count=count),
            sqlnb.Labels(labels, doc=label_doc, label=label),
            model=c["model"],
        )
        n = model.predict_to(sqlnb.Tokens(test, doc=doc, word=word, count=count), output)

        after = _tables(con, engine)
        assert after - set(before) - {output} == {t for t in after if t.startswith("sqlnb_")}
        assert {t: _contents(con, engine, t) for t in before} == before
        assert [m["model"] for m in sqlnb.models(con)] == [c["model"]]
        got = con.execute(f"SELECT * FROM {_q(output, engine)}").fetchall()
        expected = _reference(c)
        assert n == len(got) == len(expected)
        for d, lab, p in got:
            assert lab in expected[d][1] and p == pytest.approx(expected[d][0], abs=1e-9)
    finally:
        close()


# --- exit codes that tell the truth (issue 29): 130 means nothing changed ----------------------


def _interrupted(args: list[str], delay: float) -> tuple[int, str, str]:
    """Run sqlnb with ``args`` as a process and send it SIGINT after ``delay`` seconds (if
    still running): the signal and the exit code are the process's."""
    process = cli.popen(*args)
    time.sleep(delay)
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=TIMEOUT)
    return process.returncode, out, err


@pytest.mark.process
def test_ctrl_c_at_any_moment_exits_130_only_if_nothing_changed(template: Path, tmp_path: Path):
    """Append, export and import interrupted at random moments from their start (after
    Python's own, the first few tens of milliseconds) to their end: exit 130 with one line and
    nothing changed, or exit 0 with the whole change; never a traceback, never an exit by the
    signal."""
    rng = random.Random(29)
    appended = tmp_path / "appended.duckdb"
    shutil.copy(template, appended)
    append = ["--tokens", "tokens", "--labels", "labels", "--model", "m", "--append"]
    started = time.monotonic()  # a process: the delays below are scaled to a process's time
    assert cli.process("train", str(appended), *append, timeout=TIMEOUT)[0] == 0
    seconds = time.monotonic() - started
    old, new = fingerprint(template), fingerprint(appended)
    exported = tmp_path / "exported"
    assert run("export", str(template), "--model", "m", "--to", str(exported))[0] == 0
    seen: dict[str, set[int]] = {"append": set(), "export": set(), "import": set()}
    for i in range(30):
        command = ("append", "export", "import")[i % 3]
        db = tmp_path / f"db{i}.duckdb"
        shutil.copy(template, db)
        target = tmp_path / f"out{i}"
        args = {
            "append": ["train", str(db), *append],
            "export": ["export", str(db), "--model", "m", "--to", str(target)],
            "import": ["import", str(db), str(exported), "--model", "copy"],
        }[command]
        delay = (0.15, 0.2)[i] if i < 2 else rng.uniform(0.15, 1.3 * seconds)
        code, out, err = _interrupted(args, delay)
        assert code in (0, 130), (command, code, err)
        seen[command].add(code)
        if code == 130:
            assert err == "Interrupted: the database is as it was.\n", (command, err)
            assert out == ""
            assert fingerprint(db) == old, command
            assert not target.exists()
        else:
            assert err == "", (command, err)
            if command == "append":
                assert fingerprint(db) == new
            elif command == "export":
                assert sorted(p.name for p in target.iterdir()) == sorted(
                    p.name for p in exported.iterdir()
                )
            else:
                with duckdb.connect(str(db), read_only=True) as con:
                    assert sqlnb.load(con, "copy").kind_name == "multinomial"
        leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
        assert leftovers == [], leftovers
    assert all(130 in codes for codes in seen.values()), seen
