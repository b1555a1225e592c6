"""The dbt package (``dbt/``): generated from sqlnb's own SQL, and equal to the CLI in dbt.

One dbt project per adapter (dbt-duckdb; dbt-postgres at $SQLNB_TEST_POSTGRES), built once per
module on generated data: the README's example project (its files as written) plus models of
every text kind. ``dbt deps`` and ``dbt build`` run as processes (marker ``process``: dbt is
a program of its own, in this venv or at $SQLNB_TEST_DBT); the counts model is incremental,
built for batch 1, then run again for batch 2. Then the CLI, on the same database, tokenizes,
trains on both batches' labels and predicts: the tokens are the same rows and the labels and
probabilities the same within 1e-9.
"""

from __future__ import annotations

import csv
import math
import os
import random
import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import documentation
import duckdb
import pytest
from cli import run
from engines import POSTGRES_URL, unavailable

from sqlnb import dbtpackage

ROOT = Path(__file__).resolve().parents[1]
KINDS = {"multinomial": 1.0, "bernoulli": 0.5, "complement": 0.3}  # kind -> alpha


def test_the_committed_package_is_what_sqlnb_dbt_package_writes(tmp_path: Path):
    """dbt/ is the command's output, file for file (run `sqlnb dbt-package dbt` after a change
    to the SQL, the pipeline or the generator)."""
    code, _, err = run("dbt-package", str(tmp_path / "pkg"))
    assert code == 0, err
    written = {p.relative_to(tmp_path / "pkg").as_posix() for p in (tmp_path / "pkg").rglob("*")}
    committed = {p.relative_to(ROOT / "dbt").as_posix() for p in (ROOT / "dbt").rglob("*")}
    assert written == committed
    for name in sorted(p for p in written if (tmp_path / "pkg" / p).is_file()):
        mine = (tmp_path / "pkg" / name).read_text()
        stale = f"dbt/{name} is stale: run sqlnb dbt-package dbt"
        assert mine == (ROOT / "dbt" / name).read_text(), stale
    assert "kind IN (" in (ROOT / "dbt" / "macros" / "duckdb.sql").read_text()


def test_every_argument_is_bound_and_no_scoring_is_written_for_dbt():
    """The macros hold no name that stands for an argument (the generator refuses one left
    unbound); the queries come from the templates and the pipeline, so they hold their
    formulas: the log-sum-exp guard and the argmax's tie rule."""
    for adapter in dbtpackage.ADAPTERS:
        text = (ROOT / "dbt" / "macros" / f"{adapter}.sql").read_text()
        assert dbtpackage.MARK not in text
        assert "< -700" in text and "ROW_NUMBER() OVER" in text


def test_bad_arguments_stop_the_compilation_naming_them():
    """The package's checks, rendered by Jinja as dbt renders them (dbt's own context:
    exceptions.raise_compiler_error, adapter.dispatch, return)."""
    jinja2 = pytest.importorskip("jinja2")  # dbt's (the dbt extra installs it)

    class Stop(Exception):
        pass

    def raise_compiler_error(message: str) -> None:
        raise Stop(message)

    class Adapter:
        def dispatch(self, name: str, namespace: str) -> Any:
            return lambda *args: f"{name}{args}"

    env = jinja2.Environment()
    env.globals.update(
        exceptions={"raise_compiler_error": raise_compiler_error},
        adapter=Adapter(),
        **{"return": lambda value: value},
    )
    interface = (ROOT / "dbt" / "macros" / "sqlnb.sql").read_text()
    calls = {
        "train('c', kind='gaussian')": "sqlnb.train: kind gaussian: choose one of multinomial",
        "train('c', kind='complement', alpha=0)": "sqlnb.train: alpha 0: need a number >= 0",
        "train('c', alpha='1')": "sqlnb.train: alpha 1",
        "tokenize('d', ngrams=[2, 1])": "sqlnb.tokenize: ngrams [2, 1]: need [min, max]",
        "tokenize('d', ngrams=[1, 11])": "with 1 <= min <= max <= 10",
        "tokenize('d', stop_words='french')": "stop_words french: give 'english'",
        "tokenize('d', lowercase='yes')": "lowercase must be true or false",
        "predict('m', 't', proba=1)": "proba must be true or false",
    }
    for call, message in calls.items():
        with pytest.raises(Stop, match=re.escape(message)):
            env.from_string(interface + "{{ " + call + " }}").render()
    fine = env.from_string(interface + "{{ train('c', kind='bernoulli', alpha=0) }}").render()
    assert fine.strip().endswith("train('c', 'bernoulli', 0)")


# --- the projects -------------------------------------------------------------------------------


def _dbt() -> str:
    found = os.environ.get("SQLNB_TEST_DBT") or str(Path(sys.executable).parent / "dbt")
    if not Path(found).exists():
        found = shutil.which("dbt") or ""
    if not found:
        unavailable("dbt is not installed (pip install 'sqlnb[dbt]', or set $SQLNB_TEST_DBT)")
    return found


def readme_project() -> dict[str, str]:
    """The files of the documentation's example dbt project, as written there."""
    section = documentation.page("guides/dbt.md")
    found = dict(re.findall(r"`([\w./]+)`:\n\n```\w*\n(.*?)```", section, re.S))
    assert {"packages.yml", "dbt_project.yml", "models/counts.sql"} <= set(found)
    return found


def corpus(labels: list[Any], n: int = 150, seed: int = 7) -> list[dict[str, Any]]:
    """Documents (doc_id, text, label, batch) whose words depend on their class: batches 1
    and 2 train, batch 3 is never labeled. Accents, apostrophes, capitals; one empty text."""
    rng = random.Random(seed)
    vocab = [a + b for a in ("ba", "ko", "mi", "tu", "ze", "lo") for b in ("r", "n", "sk", "")]
    vocab += ["it's", "Café", "naïve", "o'clock", "The", "and", "of", "the"]
    rows = []
    for i in range(n):
        k = rng.randrange(len(labels))
        weights = [3.0 if (j % len(labels)) == k else 1.0 for j in range(len(vocab))]
        words = rng.choices(vocab, weights, k=rng.randrange(1, 14))
        rows.append(
            {"doc_id": i + 1, "text": " ".join(words), "label": labels[k], "batch": 1 + i % 3}
        )
    rows[4]["text"] = ""
    return rows


class Project:
    """A dbt project in a folder of its own, on one adapter, after its builds."""

    def __init__(
        self,
        folder: Path,
        adapter: str,
        profile: str,
        url: str,
        schema: str,
        *,
        only_readme: bool = False,
    ) -> None:
        self.folder, self.adapter, self.url, self.schema = folder, adapter, url, schema
        files = readme_project()
        files["packages.yml"] = files["packages.yml"].replace("../sqlnb/dbt", str(ROOT / "dbt"))
        files["profiles.yml"] = profile
        extra = {
            "models/grams.sql": "{{ sqlnb.tokenize(ref('docs'), ngrams=[1, 2], "
            "stop_words='english', lowercase=false) }}\n",
            "models/words.sql": "{{ sqlnb.tokenize(ref('docs'), token_pattern=\"[a-zé']+\") }}\n",
        }
        for kind, alpha in KINDS.items():
            extra[f"models/{kind}_model.sql"] = (
                f"{{{{ sqlnb.train(ref('counts'), kind='{kind}', alpha={alpha}) }}}}\n"
            )
            extra[f"models/{kind}_proba.sql"] = (
                f"{{{{ sqlnb.predict(ref('{kind}_model'), ref('tokens'), proba=true) }}}}\n"
            )
        if not only_readme:
            files.update(extra)
        for name, text in files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text)

    def dbt(self, *args: str, fails: bool = False) -> str:
        env = {**os.environ, "DBT_PROFILES_DIR": str(self.folder)}
        env["DBT_SEND_ANONYMOUS_USAGE_STATS"] = "false"
        done = subprocess.run(
            [_dbt(), *args], cwd=self.folder, env=env, capture_output=True, text=True, timeout=600
        )
        assert (done.returncode != 0) == fails, done.stdout[-4000:] + done.stderr[-2000:]
        return done.stdout

    def name(self, table: str) -> str:
        return f"{self.schema}.{table}" if self.schema else table

    def cli(self, *args: str) -> None:
        code, _, err = run(*args[:1], self.url, *args[1:])
        assert code == 0, err

    def rows(self, query: str) -> list[tuple[Any, ...]]:
        if self.adapter == "duckdb":
            with duckdb.connect(self.url, read_only=True) as con:
                return con.execute(query).fetchall()
        import psycopg

        with psycopg.connect(POSTGRES_URL) as con:
            con.execute(f"SET search_path TO {self.schema}")
            return con.execute(query).fetchall()


def _write_seed(project: Project, rows: list[dict[str, Any]]) -> None:
    seeds = project.folder / "seeds"
    seeds.mkdir(exist_ok=True)
    with (seeds / "docs.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, ["doc_id", "text", "label", "batch"])
        writer.writeheader()
        writer.writerows(rows)


def _build(project: Project, rows: list[dict[str, Any]]) -> Project:
    _write_seed(project, rows)
    project.dbt("deps")
    project.dbt("build", "--vars", "{batch: 1}")
    project.dbt("run", "--select", "labels", "counts+", "--vars", "{batch: 2}")
    # the CLI on the same data: both batches' labels, the same tokens
    project.cli("tokenize", "--docs", project.name("docs"), "--output", project.name("cli_tokens"))
    project.cli(
        "tokenize", "--docs", project.name("docs"), "--output", project.name("cli_grams"),
        "--ngrams", "1-2", "--stop-words", "english", "--no-lowercase",
    )  # fmt: skip
    project.cli(
        "tokenize", "--docs", project.name("docs"), "--output", project.name("cli_words"),
        "--token-pattern", "[a-zé']+",
    )  # fmt: skip
    return project


@pytest.fixture(scope="module")
def duckdb_project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    folder = tmp_path_factory.mktemp("dbt_duckdb")
    profile = readme_project()["profiles.yml"]
    path = str(folder / re.search(r"path: (\S+)", profile).group(1))
    project = Project(folder, "duckdb", profile, path, "")
    yield _build(project, corpus(["ham", "spam", "eggs"]))


@pytest.fixture(scope="module")
def postgres_project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    try:
        import psycopg

        con = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=3)
    except Exception as error:  # psycopg missing, or no server
        unavailable(f"no PostgreSQL at {POSTGRES_URL}: {str(error).strip()[:80]}")
    schema = f"sqlnb_dbt_{uuid.uuid4().hex[:8]}"
    info = con.info
    profile = (
        "reviews:\n  target: pg\n  outputs:\n    pg:\n      type: postgres\n"
        f"      host: {info.host}\n      port: {info.port}\n      user: {info.user}\n"
        f"      password: '{info.password or ''}'\n      dbname: {info.dbname}\n"
        f"      schema: {schema}\n      threads: 1\n"
    )
    url = f"{POSTGRES_URL}{'&' if '?' in POSTGRES_URL else '?'}options=-csearch_path%3D{schema}"
    folder = tmp_path_factory.mktemp("dbt_postgres")
    try:
        yield _build(Project(folder, "postgres", profile, url, schema), corpus([3, 10, 20]))
    finally:
        con.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        con.close()


@pytest.fixture(scope="module")
def spark_project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    """The README's project alone (each Spark model takes seconds) on dbt-spark's session
    method: Spark in the dbt process, its tables Parquet files in the project's folder."""
    python = Path(_dbt()).parent / "python"
    found = subprocess.run([python, "-c", "import dbt.adapters.spark, pyspark"], check=False)
    if found.returncode or not shutil.which("java"):
        unavailable("dbt-spark[session] (pip install 'sqlnb[dbt]') or Java is missing")
    # The test-only settings of the tests' own session (tests/engines.py: tables of tens of
    # rows, where a compilation per query costs more than its rows; issue 36).
    profile = (
        "reviews:\n  target: spark\n  outputs:\n    spark:\n      type: spark\n"
        "      method: session\n      host: NA\n      schema: reviews\n      threads: 1\n"
        "      server_side_parameters:\n        spark.master: local[2]\n"
        "        spark.sql.shuffle.partitions: '1'\n        spark.ui.enabled: 'false'\n"
        "        spark.sql.codegen.wholeStage: 'false'\n"
        "        spark.sql.adaptive.enabled: 'false'\n"
        "        spark.sql.codegen.cache.maxEntries: '1000'\n"
    )
    folder = tmp_path_factory.mktemp("dbt_spark")
    project = Project(folder, "spark", profile, "", "reviews", only_readme=True)
    # the documents as a model over a Parquet file: dbt-spark's seeds break on an apostrophe
    # (its session method pastes the values into an INSERT: "Syntax error at or near 'clock'")
    with duckdb.connect() as con:
        con.execute("CREATE TABLE docs (doc_id BIGINT, text VARCHAR, label VARCHAR, batch BIGINT)")
        con.executemany(
            "INSERT INTO docs VALUES (?, ?, ?, ?)",
            [tuple(r.values()) for r in corpus(["ham", "spam", "eggs"])],
        )
        con.execute(f"COPY docs TO '{folder / 'docs.parquet'}' (FORMAT parquet)")
    (folder / "models" / "docs.sql").write_text(
        f"select * from parquet.`{folder / 'docs.parquet'}`\n"
    )
    project.dbt("deps")
    project.dbt("build", "--vars", "{batch: 1}")  # one batch: a Spark session takes minutes
    yield project


@pytest.mark.spark
@pytest.mark.slow
@pytest.mark.process
def test_spark_gives_the_rows_of_duckdb(spark_project: Project, duckdb_project: Project):
    """dbt-spark's tokens are DuckDB's, and its predictions (batch 1) the CLI's on DuckDB of
    a model trained on batch 1: the same rows, probabilities within 1e-9."""
    project = duckdb_project
    labels, out = project.name("cli_labels_batch1"), project.name("cli_predictions_batch1")
    _create(project, labels, "SELECT doc_id, label FROM docs WHERE batch = 1")
    project.cli("train", "--tokens", "cli_tokens", "--labels", labels, "--model", "batch1")
    project.cli("predict", "--model", "batch1", "--tokens", "cli_tokens", "--output", out)
    for table, theirs in (("tokens", "tokens"), ("predictions", out)):
        files = spark_project.folder / "spark-warehouse" / "reviews.db" / table / "*.parquet"
        with duckdb.connect() as con:
            mine = sorted(con.execute(f"SELECT * FROM read_parquet('{files}')").fetchall())
        found = sorted(project.rows(f"SELECT * FROM {theirs}"))
        assert len(mine) == len(found) > 100
        for a, b in zip(mine, found):
            assert a[:2] == b[:2]
            assert math.isclose(a[-1], b[-1], rel_tol=0, abs_tol=1e-9)


@pytest.fixture(params=["duckdb", pytest.param("postgres", marks=pytest.mark.postgres)])
def project(request: pytest.FixtureRequest) -> Project:
    return request.getfixturevalue(f"{request.param}_project")


# --- the comparisons ----------------------------------------------------------------------------


@pytest.mark.process
def test_tokenize_gives_the_rows_of_sqlnb_tokenize(project: Project):
    for ours, theirs in (("tokens", "cli_tokens"), ("grams", "cli_grams"), ("words", "cli_words")):
        mine = project.rows(f"SELECT doc_id, word, count FROM {ours}")
        cli = project.rows(f"SELECT doc_id, word, count FROM {theirs}")
        assert len(mine) > 100 and sorted(mine) == sorted(cli)
    grams = {w for _, w, _ in project.rows("SELECT doc_id, word, count FROM grams")}
    assert "Café" in grams and any(" " in w for w in grams) and "the" not in grams


@pytest.mark.process
def test_the_incremental_counts_hold_both_batches(project: Project):
    """The second run appended batch 2's rows to batch 1's (a word of both batches has two
    rows), and the documents add up to both batches' labeled documents."""
    (n_docs,) = project.rows("SELECT SUM(count) FROM counts WHERE statistic = 'documents'")[0]
    (twice,) = project.rows(
        "SELECT COUNT(*) FROM (SELECT statistic, label, word FROM counts "
        "GROUP BY statistic, label, word HAVING COUNT(*) > 1) AS t"
    )[0]
    assert n_docs == 100 and twice > 10


@pytest.mark.process
@pytest.mark.parametrize("kind", list(KINDS))
def test_predict_equals_the_cli_trained_on_both_batches(project: Project, kind: str):
    """The model trained from the appended counts predicts as `sqlnb train` on the union of
    the batches and `sqlnb predict --tokens --proba`: labels equal (in the labels' own type),
    log-probabilities and probabilities within 1e-9."""
    labels = project.name(f"cli_labels_{kind}")
    with_labels = f"SELECT doc_id, label FROM {project.name('docs')} WHERE batch IN (1, 2)"
    _create(project, labels, with_labels)
    model = f"dbt_{kind}"
    project.cli(
        "train", "--tokens", project.name("cli_tokens"), "--labels", labels, "--model", model,
        "--kind", kind, "--alpha", str(KINDS[kind]),
    )  # fmt: skip
    out = project.name(f"cli_proba_{kind}")
    tokens = project.name("cli_tokens")
    project.cli("predict", "--model", model, "--tokens", tokens, "--proba", "--output", out)
    query = "SELECT doc_id, label, log_proba, proba FROM {} ORDER BY doc_id, label"
    mine, cli = project.rows(query.format(f"{kind}_proba")), project.rows(query.format(out))
    assert len(mine) == len(cli) > 100
    for a, b in zip(mine, cli):
        assert a[:2] == b[:2]
        assert (a[2] is None) == (b[2] is None)
        assert a[2] is None or math.isclose(a[2], b[2], rel_tol=0, abs_tol=1e-9)
        assert math.isclose(a[3], b[3], rel_tol=0, abs_tol=1e-9)
    if kind == "multinomial":  # the README's model: one row per document, the top label
        out = project.name("cli_predictions")
        project.cli("predict", "--model", model, "--tokens", tokens, "--output", out)
        query = "SELECT doc_id, label, proba FROM {} ORDER BY doc_id"
        mine, cli = project.rows(query.format("predictions")), project.rows(query.format(out))
        assert [r[:2] for r in mine] == [r[:2] for r in cli] and len(mine) > 100
        assert all(math.isclose(a[2], b[2], abs_tol=1e-9) for a, b in zip(mine, cli))


def _create(project: Project, table: str, query: str) -> None:
    if project.adapter == "duckdb":
        with duckdb.connect(project.url) as con:
            con.execute(f"CREATE OR REPLACE TABLE {table} AS {query}")
        return
    import psycopg

    with psycopg.connect(POSTGRES_URL, autocommit=True) as con:
        con.execute(f"DROP TABLE IF EXISTS {table}")
        con.execute(f"CREATE TABLE {table} AS {query}")
