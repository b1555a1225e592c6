"""The command line on real DuckDB files: help, outputs, one-line errors, nothing changed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cli
import documentation
import duckdb
import pytest
from conftest import copy_database, random_corpus
from sklearn.metrics import accuracy_score, f1_score, log_loss
from sklearn.naive_bayes import MultinomialNB

COMMANDS = [
    "train",
    "predict",
    "evaluate",
    "show",
    "models",
    "drop",
    "demo",
    "tokenize",
    "classify",
    "report",
    "retune",
    "explain",
    "weights",
    "export",
    "import",
    "tune",
    "calibrate",
    "features",
    "sql train",
    "sql predict",
    "sql evaluate",
]


def run(*args: str) -> cli.Result:
    """The command in this process (tests/cli.py), 40 columns wide: exit code, stdout, stderr."""
    return cli.run(*args, env={**cli.ENV, "COLUMNS": "40"})


def snapshot(path: Path) -> dict[str, list]:
    """Every table's sorted contents."""
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


@pytest.fixture(scope="module")
def trained_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("trained") / "test.duckdb"
    corpus = random_corpus(5, n_classes=3, vocab=300)
    with duckdb.connect(str(path)) as con:
        corpus.load(con)
        con.execute("CREATE TABLE tokens AS SELECT * FROM train_tokens")
        con.execute("CREATE TABLE labels AS SELECT * FROM train_labels")
    cli.run("train", path, "--model", "m", env=None, ok=True)
    return path


@pytest.fixture
def trained(trained_once: Path, db_path: Path) -> Path:
    """The module's trained database, a copy of its own for each test (tests write to it)."""
    return copy_database(trained_once, db_path)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_and_is_in_the_readme(command):
    result = cli.run(*command.split(), "--help", env=None)
    assert result.returncode == 0 and "Usage" in result.stdout + result.stderr
    assert f"sqlnb {command}" in documentation.everything()


def test_predict_evaluate_show_models_drop(trained: Path):
    db = str(trained)
    code, stdout, _ = run(
        "predict", db, "--model", "m", "--tokens", "test_tokens", "--output", "out"
    )
    assert code == 0 and "wrote" in stdout
    with duckdb.connect(db, read_only=True) as con:
        assert con.execute("SELECT COUNT(*), COUNT(DISTINCT doc_id) FROM out").fetchone() == (
            con.execute(
                "SELECT COUNT(DISTINCT doc_id), COUNT(DISTINCT doc_id) FROM test_tokens"
            ).fetchone()
        )
        assert [c[0] for c in con.execute("DESCRIBE out").fetchall()] == [
            "doc_id",
            "label",
            "proba",
        ]
    code, _, _ = run(
        "predict", db, "--model", "m", "--tokens", "test_tokens", "--output", "pr", "--proba"
    )
    with duckdb.connect(db, read_only=True) as con:
        assert [c[0] for c in con.execute("DESCRIBE pr").fetchall()] == [
            "doc_id",
            "label",
            "log_proba",
            "proba",
        ]
        sums = con.execute(
            "SELECT MIN(s), MAX(s) FROM (SELECT SUM(proba) s FROM pr GROUP BY doc_id)"
        ).fetchone()
        assert sums == pytest.approx((1.0, 1.0), abs=1e-12)
    code, stdout, stderr = run(
        "evaluate",
        db,
        "--model",
        "m",
        "--tokens",
        "test_tokens",
        "--labels",
        "test_labels",
        "--json",
    )
    assert code == 0, stderr
    result = json.loads(stdout)
    assert set(result) >= {"accuracy", "macro_f1", "log_loss", "per_class", "confusion"}
    corpus = random_corpus(5, n_classes=3, vocab=300)
    X, y, X_test, docs = corpus.matrices()
    reference = MultinomialNB().fit(X, y)
    truth = dict(zip(corpus.test_labels["doc_id"], corpus.test_labels["label"]))
    y_true = [truth[d] for d in docs]
    assert result["accuracy"] == pytest.approx(
        accuracy_score(y_true, reference.predict(X_test)), abs=1e-12
    )
    assert result["macro_f1"] == pytest.approx(
        f1_score(y_true, reference.predict(X_test), average="macro"), abs=1e-12
    )
    assert result["log_loss"] == pytest.approx(
        log_loss(y_true, reference.predict_proba(X_test), labels=reference.classes_), abs=1e-9
    )
    assert sum(c["count"] for c in result["confusion"]) == len(docs)
    code, stdout, _ = run("show", db, "--model", "m", "--top", "3")
    assert code == 0 and "class 00" in stdout
    code, stdout, _ = run("models", db, "--json")
    [listed] = json.loads(stdout)
    assert listed["model"] == "m" and listed["classes"] == ["class 00", "class 01", "class 02"]
    assert listed["params"]["alpha"] == 1.0 and listed["n_features"] > 0
    code, stdout, _ = run("drop", db, "--model", "m")
    assert code == 0
    code, stdout, _ = run("models", db, "--json")
    assert json.loads(stdout) == []


ERRORS = [
    (
        ["predict", "{db}", "--model", "nope", "--tokens", "test_tokens", "--output", "o"],
        "no model named 'nope'",
    ),
    (
        ["predict", "{db}", "--model", "m", "--tokens", "missing", "--output", "o"],
        "table 'missing' does not exist",
    ),
    (
        ["predict", "{db}", "--model", "m", "--tokens", "test_tokens", "--output", "tokens"],
        "output table 'tokens' already exists",
    ),
    (["train", "{db}", "--model", "m", "--word-column", "term"], "no word column 'term'"),
    (["train", "{db}", "--model", "m", "--alpha", "-1"], "alpha must be"),
    (
        ["train", "{db}", "--model", "m", "--class-prior", "class 00=0.5,class 01=0.5"],
        "does not name class 'class 02'",
    ),
    (
        [
            "train",
            "{db}",
            "--model",
            "m",
            "--class-prior",
            "class 00=0.5,class 01=0.2,class 02=0.2",
        ],
        "sums to 0.9",
    ),
    (
        [
            "train",
            "{db}",
            "--model",
            "m",
            "--class-prior",
            "class 00=0.5,class 01=0.2,class 02=0.2,x=0.1",
        ],
        "unknown class 'x'",
    ),
    (
        ["train", "{db}", "--model", "m", "--tokens", 'x"; DROP TABLE labels; --'],
        "table 'x\"; DROP TABLE labels; --' does not exist",
    ),
    (["train", "{db}", "--model", "m", "--labels", "bad_labels"], "two different labels"),
    (["train", "{db}", "--model", "m", "--tokens", "bad_tokens"], "negative counts"),
    (["train", "{db}", "--model", "m", "--kind", "nope"], "nope"),
    (
        ["evaluate", "{db}", "--model", "m", "--tokens", "test_tokens", "--labels", "int_labels"],
        "trained on VARCHAR labels",
    ),
    (["sql", "train", "{db}", "--dialect", "oracle"], "oracle"),
    (["models", "{missing}"], "does not exist"),
]


@pytest.mark.parametrize("args,message", ERRORS)
def test_errors_are_one_line_and_change_nothing(trained: Path, args, message):
    with duckdb.connect(str(trained)) as con:
        con.execute(
            "CREATE TABLE bad_labels AS SELECT * FROM labels UNION ALL "
            "(SELECT doc_id, 'class 01' FROM labels WHERE label = 'class 00' LIMIT 1)"
        )
        con.execute("CREATE TABLE bad_tokens AS SELECT doc_id, word, -count AS count FROM tokens")
        con.execute("CREATE TABLE int_labels AS SELECT doc_id, 1 AS label FROM test_labels")
    before = snapshot(trained)
    argv = [a.format(db=trained, missing=trained.parent / "missing.duckdb") for a in args]
    code, _, stderr = run(*argv)
    assert code in (1, 2), stderr  # 2: Typer's own usage errors (unknown choice)
    if code == 1:
        assert stderr.count("\n") == 1 and stderr.startswith("Error: "), stderr
        assert message in stderr
    else:
        assert message in stderr
    assert snapshot(trained) == before
    assert not (trained.parent / "missing.duckdb").exists()


def test_sql_prints_scripts_without_changing_the_database(trained: Path):
    before = snapshot(trained)
    dialects = ("duckdb", "sqlite", "postgres", "spark", "clickhouse", "bigquery", "snowflake")
    for dialect in (*dialects, "trino"):
        for command in (
            ["train", "--model", "m2"],
            ["predict", "--model", "m", "--tokens", "test_tokens", "--output", "o"],
            ["evaluate", "--model", "m", "--tokens", "test_tokens", "--labels", "test_labels"],
        ):
            code, stdout, stderr = run(
                "sql", command[0], str(trained), "--dialect", dialect, *command[1:]
            )
            assert code == 0, stderr
            assert stdout.rstrip().endswith(";")
            assert "$" not in re.sub(r"'[^']*'", "", stdout)
    assert snapshot(trained) == before


def test_sql_scripts_run_as_they_are(trained: Path, tmp_path: Path):
    """The printed train script, then the printed predict script, run on a fresh database."""
    _, train_sql, _ = run("sql", "train", str(trained), "--model", "m")
    _, predict_sql, _ = run(
        "sql",
        "predict",
        str(trained),
        "--model",
        "m",
        "--tokens",
        "test_tokens",
        "--output",
        "scripted",
    )
    with duckdb.connect(str(trained)) as con:
        expected = sorted(con.execute("SELECT * FROM (" + _predict_query(con) + ")").fetchall())
    fresh = tmp_path / "fresh.duckdb"
    with duckdb.connect(str(fresh)) as con:
        con.execute(f"ATTACH '{trained}' AS src (READ_ONLY)")
        for t in ("tokens", "labels", "test_tokens"):
            con.execute(f"CREATE TABLE {t} AS SELECT * FROM src.{t}")
        con.execute("DETACH src")
        con.execute(train_sql)
        con.execute(predict_sql)
        got = sorted(con.execute("SELECT * FROM scripted").fetchall())
    assert [r[:2] for r in got] == [r[:2] for r in expected]
    assert all(abs(a[2] - b[2]) < 1e-12 for a, b in zip(got, expected))


def _predict_query(con: duckdb.DuckDBPyConnection) -> str:
    import sqlnb

    model = sqlnb.load(con, "m")
    return model.db.sql(model.prediction_query("test_tokens"))


def test_table_kinds_from_the_command_line(db_path: Path):
    with duckdb.connect(str(db_path)) as con:
        con.execute("""CREATE TABLE flowers AS SELECT i AS id, (i % 3) * 1.5 + (i % 7) * 0.1 AS
            petal, CASE WHEN i % 3 = 0 THEN 'short' ELSE 'long' END AS stem, 'k' || (i % 3) AS
            species, i * 2 AS ignored FROM range(60) AS r(i)""")
    db = str(db_path)
    code, stdout, stderr = run(
        "train",
        db,
        "--table",
        "flowers",
        "--label-column",
        "species",
        "--features",
        "petal,stem",
        "--model",
        "iris",
    )
    assert code == 0, stderr
    assert "mixed" in stdout and "2 features" in stdout
    code, _, stderr = run(
        "predict", db, "--model", "iris", "--table", "flowers", "--output", "out", "--proba"
    )
    assert code == 0, stderr
    code, stdout, _ = run(
        "evaluate",
        db,
        "--model",
        "iris",
        "--table",
        "flowers",
        "--label-column",
        "species",
        "--json",
    )
    assert json.loads(stdout)["accuracy"] == 1.0
    code, stdout, _ = run("show", db, "--model", "iris")
    assert "Gaussian features" in stdout and "categorical features" in stdout
    code, _, stderr = run(
        "train",
        db,
        "--table",
        "flowers",
        "--label-column",
        "species",
        "--kind",
        "gaussian",
        "--alpha",
        "1",
    )
    assert code == 1 and "does not use --alpha" in stderr
    code, _, stderr = run(
        "train",
        db,
        "--table",
        "flowers",
        "--label-column",
        "species",
        "--kind",
        "gaussian",
        "--features",
        "petal",
        "--var-smoothing",
        "0",
        "--model",
        "g",
    )
    assert code == 0, stderr
    code, stdout, _ = run(
        "sql",
        "train",
        db,
        "--table",
        "flowers",
        "--label-column",
        "species",
        "--features",
        "petal,stem",
        "--dialect",
        "postgres",
    )
    assert code == 0 and "sqlnb_gaussian_stats" in stdout


def test_growth_commands(trained: Path, tmp_path: Path):
    db = str(trained)
    with duckdb.connect(db) as con:
        con.execute("CREATE TABLE more AS SELECT doc_id, label FROM labels WHERE doc_id % 2 = 0")
        con.execute(
            "CREATE TABLE two AS SELECT doc_id, CASE WHEN label = 'class 00' THEN 'a' "
            "ELSE 'b' END AS label FROM labels"
        )
    code, stdout, stderr = run("train", db, "--model", "m", "--labels", "more", "--append")
    assert code == 0 and "appended to" in stdout, stderr
    code, _, stderr = run(
        "train", db, "--model", "m", "--labels", "more", "--append", "--alpha", "2"
    )
    assert code == 1 and "--alpha is not allowed" in stderr
    code, _, stderr = run(
        "train", db, "--model", "m", "--labels", "more", "--append", "--select", "chi2:5"
    )
    assert code == 1 and "--select is not allowed" in stderr
    code, stdout, stderr = run("retune", db, "--model", "m", "--alpha", "0.5")
    assert code == 0 and '"alpha": 0.5' in stdout, stderr
    code, stdout, stderr = run(
        "explain", db, "--model", "m", "--tokens", "test_tokens", "--top", "2", "--output", "why"
    )
    assert code == 0, stderr
    code, stdout, _ = run(
        "explain", db, "--model", "m", "--tokens", "test_tokens", "--doc", "100000", "--top", "3"
    )
    assert "(prior)" in stdout and "(other)" in stdout
    code, _, stderr = run("weights", db, "--model", "m", "--output", "w")
    assert code == 1 and "needs exactly two" in stderr
    run("train", db, "--model", "ab", "--labels", "two")
    code, _, stderr = run("weights", db, "--model", "ab", "--output", "w")
    assert code == 0, stderr
    code, _, stderr = run("export", db, "--model", "m", "--to", str(tmp_path / "file"))
    assert code == 0, stderr
    other = tmp_path / "other.sqlite"
    code, _, stderr = run("import", f"sqlite:///{other}", str(tmp_path / "file"), "--model", "x")
    assert code == 0, stderr
    code, stdout, _ = run("models", f"sqlite:///{other}", "--json")
    assert json.loads(stdout)[0]["model"] == "x"
    code, stdout, stderr = run("tune", db, "--alpha", "0.1,1,10", "--folds", "3", "--json")
    assert code == 0, stderr
    result = json.loads(stdout)
    assert result["best_alpha"] in (0.1, 1.0, 10.0) and len(result["results"]) == 3


def test_the_readme_table_of_hyperparameters_is_the_declarations():
    """The README's table of options is the one sqlnb/kinds/params.py's declarations give."""
    from sqlnb.kinds import KINDS, params

    readme = documentation.everything()
    assert params.markdown(list(KINDS.values())) in readme
