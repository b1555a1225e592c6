"""Spark as its users run it (issue 24): every command through the command line, with labels
equal to DuckDB's and nothing on stderr. Once in this process on the tests' one local session
(every command: train, models, retrain, predict, tokenize, classify in place, evaluate); then,
each its own process for what only processes show, the fewest commands that prove it: with
nothing configured, a training run by a standalone master and worker that the next command
(on local Spark) and ``spark-sql`` (on the cluster) started in the same folder see (the
catalog kept between commands); on a Spark Connect server, every command as a client of its
own and a user's script calling the SQL functions.

``.ci/run`` starts the master and worker (``$SQLNB_TEST_SPARK_MASTER``) and the Connect
server (``$SQLNB_TEST_SPARK_CONNECT``) from pyspark's own scripts; where they are not running
those cases are skipped, except in CI.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import cli
import duckdb
import pandas as pd
import pytest
from engines import unavailable

import sqlnb

TEXTS = [
    ("good tasty food, great value", "good"),
    ("great value and good service", "good"),
    ("tasty good fine food", "good"),
    ("bad stale awful food", "bad"),
    ("awful bad service, stale", "bad"),
    ("stale bad value", "bad"),
    ("fine, just fine", "meh"),
    ("it was fine and ok", "meh"),
]
TESTS = [
    "good good food",
    "awful stale bread",
    "fine ok",
    "Éclair naïve café, don't",
    "",
    "zzz unknown words",
]


def spark_available() -> None:
    try:
        import pyspark  # noqa: F401
    except ImportError:
        unavailable("pyspark is not installed (pip install 'sqlnb[spark]')")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Raw-text Parquet files (train, test) and a DuckDB file with the same model trained."""
    spark_available()
    folder = tmp_path_factory.mktemp("corpus")
    train = pd.DataFrame(
        [(i, t, label) for i, (t, label) in enumerate(TEXTS * 3)],
        columns=["doc_id", "text", "label"],
    )
    test = pd.DataFrame(list(enumerate(TESTS, 1000)), columns=["doc_id", "text"])
    train.to_parquet(folder / "train.parquet")
    test.to_parquet(folder / "test.parquet")
    with duckdb.connect(str(folder / "ref.duckdb")) as con:
        model = sqlnb.train(con, sqlnb.Docs(str(folder / "train.parquet")), model="m")
        rows = model.predict(sqlnb.Docs(str(folder / "test.parquet"))).fetchall()
    (folder / "expected.csv").write_text(
        "".join(f"{doc},{label},{proba!r}\n" for doc, label, proba in sorted(rows))
    )
    return folder


def expected(corpus: Path) -> dict[int, tuple[str, float]]:
    rows = csv.reader(io.StringIO((corpus / "expected.csv").read_text()))
    return {int(d): (label, float(p)) for d, label, p in rows}


Commands = Callable[[Path, list[list[str]]], list[str]]


def sqlnb_cli(cwd: Path, *args: str) -> str:
    """One command in its own process (what the file checks); it must succeed with nothing on
    stderr."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SPARK_CONF")}
    done = cli.process(*args, cwd=cwd, env=environment)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stderr == "", done.stderr[-3000:]
    return done.stdout


def succeeded(done: cli.Result) -> str:
    """A command's stdout, after asserting that it succeeded with nothing on stderr."""
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stderr == "", done.stderr[-3000:]
    return done.stdout


def in_process(cwd: Path, commands: list[list[str]]) -> list[str]:
    """The commands in this process (``cli.run``), each succeeding with nothing on stderr."""
    return [succeeded(cli.run(*c, cwd=cwd)) for c in commands]


def one_client(cwd: Path, commands: list[list[str]]) -> list[str]:
    """The commands one after the other in one process of their own (``cli.one_process``):
    a Connect client cannot live beside this process's classic session. Each succeeds with
    nothing on stderr."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SPARK_CONF")}
    return [succeeded(d) for d in cli.one_process(*commands, cwd=cwd, env=environment)]


def predicted(out: str) -> dict[int, tuple[str, float]]:
    rows = list(csv.reader(io.StringIO(out)))[1:]
    return {int(d): (label, float(p)) for d, label, p in rows}


def assert_same(got: dict[int, tuple[str, float]], want: dict[int, tuple[str, float]]) -> None:
    assert got.keys() == want.keys()
    for doc, (label, proba) in want.items():
        assert got[doc][0] == label, doc
        assert abs(got[doc][1] - proba) <= 1e-9, doc


def round_trip(db: str, cwd: Path, corpus: Path, model: str, run: Commands) -> None:
    """train, list, retrain, predict, tokenize, classify in place and evaluate, one after the
    other by ``run``: the first training says what it trained and ``models`` lists it; predict
    gives DuckDB's labels (the retraining replaced the model, not added to it); classify
    writes them (evaluated against the model's own predictions, accuracy 1)."""
    train = ["--docs", str(corpus / "train.parquet"), "--model", model]
    test = ["--docs", str(corpus / "test.parquet")]
    table = f"tokens_{model}"
    outputs = run(
        cwd,
        [
            ["train", db, *train, "--alpha", "0.5"],
            ["models", db],
            ["train", db, *train],  # retrained: replaced, not added to
            ["predict", db, "--model", model, *test],
            ["tokenize", db, *test, "--output", table, "--replace"],
            [
                "classify",
                db,
                "--model",
                model,
                "--update",
                table,
                "--id-column",
                "doc_id",
                "--tokens",
                table,
                "--into",
                "predicted",
            ],
            [
                "evaluate",
                db,
                "--model",
                model,
                "--tokens",
                table,
                "--labels",
                table,
                "--label-column",
                "predicted",
                "--json",
            ],
        ],
    )
    trained, listed, _, prediction, _, _, report = outputs
    assert "trained multinomial" in trained
    assert model in listed
    assert_same(predicted(prediction), expected(corpus))
    assert '"accuracy": 1.0' in report, report


def test_every_command_on_one_spark_session(corpus, tmp_path, spark_url):
    """The whole round trip through the command line, in this process on one session (what
    each command does on Spark; the tests below are about separate commands and processes)."""
    round_trip(spark_url, tmp_path, corpus, "m", in_process)


def test_a_docs_file_is_read_through_one_view_a_command(corpus, tmp_path, spark_url):
    """Issue 38: Spark infers a Parquet file's schema in a job at each analysis of a query that
    names it by path (``parquet.`...` ``). A command of sqlnb's own session reads a docs file
    through one temporary view of it, made once (its schema inferred once) and dropped at the
    command's end: no statement names the file, and the session's temporary views are as
    they were. The predictions are DuckDB's."""
    import sqlnb.engine.spark

    session = sqlnb.engine.spark.open_session(spark_url)  # (the tests' one, see spark_url)
    before = {t.name for t in session.catalog.listTables() if t.isTemporary}
    profile = tmp_path / "profile.jsonl"
    env = {**cli.ENV, "SQLNB_PROFILE": str(profile)}
    test = ["--docs", str(corpus / "test.parquet")]
    for command in (
        ["train", spark_url, "--docs", str(corpus / "train.parquet"), "--model", "viewed"],
        ["predict", spark_url, "--model", "viewed", *test, "--output", str(tmp_path / "p.csv")],
    ):
        succeeded(cli.run(*command, cwd=tmp_path, env=env))
    texts = [json.loads(line)["sql"] for line in profile.read_text().splitlines()]
    read = [t for t in texts if "`sqlnb_file_" in t]
    assert len(read) >= 4, texts  # the survey, the counting, ..., predict's query
    assert not [t for t in texts if "parquet.`" in t.lower()]
    assert {t.name for t in session.catalog.listTables() if t.isTemporary} == before
    rows = pd.read_csv(tmp_path / "p.csv")
    got = {int(d): (str(label), float(p)) for d, label, p in rows.itertuples(index=False)}
    assert_same(got, expected(corpus))


def test_a_python_connection_reads_files_as_they_are_at_each_command(corpus, tmp_path, spark_url):
    """A Python caller's connection to a Spark URL (``sqlnb.connect``) serves many commands: a
    glob of Parquet files that gains a file between two trainings is read as it is at each
    (the command line's session, one command, reads a file through a temporary view, which
    keeps the file list it was made with)."""
    docs = pd.read_parquet(corpus / "train.parquet")
    folder, half = tmp_path / "docs", len(docs) // 2
    folder.mkdir()
    docs.iloc[:half].to_parquet(folder / "a.parquet", index=False)
    source = sqlnb.Docs(str(folder / "*.parquet"))
    with sqlnb.connect(spark_url) as db:
        first = sqlnb.train(db, source, model="first")
        docs.iloc[half:].to_parquet(folder / "b.parquet", index=False)
        second = sqlnb.train(db, source, model="second")
    assert (first.info["n_docs"], second.info["n_docs"]) == (half, len(docs))


@pytest.mark.process
def test_commands_on_a_standalone_cluster_and_local_spark_share_the_folders_catalog(
    corpus, tmp_path
):
    """Each command its own process (its own driver JVM, and on the cluster its own
    application and executors), with nothing configured: a training run by a standalone
    master and worker leaves a Hive catalog in the working directory; a prediction on
    local[2], the next command, reads it (DuckDB's labels); spark-sql started there on the
    cluster sees the model and the SQL functions (predict's labels). Without a master
    (``$SQLNB_TEST_SPARK_MASTER``; CI has one) every command runs on local[2]."""
    master = os.environ.get("SQLNB_TEST_SPARK_MASTER")
    if not master and os.environ.get("CI"):
        unavailable("no standalone Spark master ($SQLNB_TEST_SPARK_MASTER)")
    cluster = master or "local[2]"
    train = ["--docs", str(corpus / "train.parquet"), "--model", "m"]
    assert "trained multinomial" in sqlnb_cli(tmp_path, "train", cluster, *train)
    assert (tmp_path / "metastore_db").is_dir() and (tmp_path / "spark-warehouse").is_dir()
    test = ["--docs", str(corpus / "test.parquet")]
    got = predicted(sqlnb_cli(tmp_path, "predict", "local[2]", "--model", "m", *test))
    assert_same(got, expected(corpus))
    assert_functions_with_spark_sql(tmp_path, corpus, cluster)


def assert_functions_with_spark_sql(cwd: Path, corpus: Path, master: str) -> None:
    """spark-sql, started in the training's folder, sees the model and sqlnb_classify."""
    import pyspark

    home = Path(pyspark.__file__).parent
    query = (
        "SELECT doc_id, sqlnb_classify('m', text) FROM parquet.`"
        + str(corpus / "test.parquet")
        + "` ORDER BY doc_id"
    )
    done = subprocess.run(
        [str(home / "bin" / "spark-sql"), "--master", master, "-e", query],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "SPARK_HOME": str(home)},
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [line.split("\t") for line in done.stdout.splitlines() if line.strip()]
    assert {int(d): label for d, label in rows} == {
        d: label for d, (label, _) in expected(corpus).items()
    }


@pytest.mark.process
def test_spark_connect(corpus, tmp_path):
    """Every command a Connect client (the Connect client's code path, not a JVM of this
    process): the round trip in one client process (the commands need not be processes of
    their own: each opens its own Connect session, and the server's catalog keeps the model
    between them), then a user's script calling the SQL functions (a process of its own that
    never imported sqlnb) and a dropping client."""
    url = os.environ.get("SQLNB_TEST_SPARK_CONNECT")
    if not url:
        unavailable("no Spark Connect server ($SQLNB_TEST_SPARK_CONNECT)")
    model = f"m_{uuid.uuid4().hex[:8]}"  # the server's catalog is shared by every test
    round_trip(url, tmp_path, corpus, model, one_client)
    # A Connect client of its own, as a user's script is (a process that never imported sqlnb
    # nor a classic session: pyspark's Connect modules import each other in one order only).
    query = (
        f"SELECT doc_id, sqlnb_classify('{model}', text) AS label, "
        f"sqlnb_proba('{model}', text) AS p FROM parquet.`{corpus / 'test.parquet'}`"
    )
    script = (
        "import json, warnings\n"
        "warnings.simplefilter('ignore')\n"
        "from pyspark.sql import SparkSession\n"
        f"spark = SparkSession.builder.remote({url!r}).getOrCreate()\n"
        f"print(json.dumps([list(r) for r in spark.sql({query!r}).collect()]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = json.loads(done.stdout.strip().splitlines()[-1])
    assert_same({r[0]: (r[1], r[2]) for r in rows}, expected(corpus))
    sqlnb_cli(tmp_path, "drop", url, "--model", model)
