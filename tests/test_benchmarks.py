"""The benchmark (benchmarks/run.py) runs end to end on a tiny corpus, so it never rots. Each
script runs as a process of its own, as a user runs it."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

RUN = Path(__file__).resolve().parents[1] / "benchmarks" / "run.py"


@pytest.mark.slow
@pytest.mark.process
def test_quick_benchmark_runs_and_sqlnb_matches_scikit_learn(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(RUN), "--quick", "--data-root", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    parity = re.findall(
        r"^- parity (.+?): (\w+) \(labels identical: (\w+), .*?"
        r"max \|log-proba diff\| (\S+) ",
        done.stdout,
        flags=re.M,
    )
    multinomial = [p for p in parity if "multinomial:" in p[0]]
    assert len(multinomial) == 4, done.stdout  # K=2 and K=20, from Parquet and from tables
    for name, verdict, identical, diff in parity:
        assert (verdict, identical) == ("passed", "True"), name
        assert float(diff) <= 1e-9, name
    assert "| scikit-learn |" in done.stdout and "| sqlnb from Parquet |" in done.stdout


SPEED = RUN.parent / "speed.py"


@pytest.mark.slow
@pytest.mark.process
def test_quick_speed_benchmark_reports_every_ratio(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SPEED), "--quick", "--data-root", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    # train ÷ the plain GROUP BY pass, for each text kind: a real ratio, not a dash
    for kind in ("multinomial", "complement", "bernoulli"):
        ratio = re.search(
            rf"^\| 50k rows, K = 20 \| {kind} \| [\d.]+ \| [\d.]+ \| ([\d.]+)×", out, re.M
        )
        assert ratio and float(ratio.group(1)) > 0, out
    assert re.search(r"^\| counting \| [\d.]+ \|", out, re.M), out
    try:
        import chdb  # noqa: F401
    except ImportError:
        return
    # ClickHouse's Naive Bayes and sqlnb from raw text agree on accuracy to 1e-2
    row = re.search(
        r"^\| 50k rows, K = 20 \| [\d.]+ \| ([\d.]+) \| [\d.]+ \| ([\d.]+) \|", out, re.M
    )
    assert row, out
    assert abs(float(row.group(1)) - float(row.group(2))) <= 0.01


ENGINES = RUN.parent / "engines.py"


@pytest.mark.slow
@pytest.mark.process
@pytest.mark.sqlite
@pytest.mark.postgres
@pytest.mark.spark
def test_quick_engines_benchmark_times_every_command_on_every_engine(tmp_path: Path) -> None:
    """Every command runs on every engine, at one size, the smallest (2k token rows): one
    process per engine, PostgreSQL's the server the tests use (the sizes of ``--quick``, 20k and
    80k, start a second Spark and time the same commands again)."""
    from engines import POSTGRES_URL, unavailable

    engines = ["duckdb", "sqlite"]
    try:  # PostgreSQL and Spark where they are here (in CI they must be)
        import psycopg

        psycopg.connect(POSTGRES_URL, connect_timeout=3).close()
        engines.append("postgres")
    except Exception as error:
        if os.environ.get("CI"):
            unavailable(f"no PostgreSQL at {POSTGRES_URL}: {error}")
    if importlib.util.find_spec("pyspark"):
        engines.append("spark")
    elif os.environ.get("CI"):
        unavailable("pyspark is not installed")
    # Spark's session in the benchmark reads the tests' test-only settings from a
    # spark-defaults.conf (tests/engines.py: tiny tables, where a compilation per query costs
    # more than its rows; 97 -> 76 CPU-s for its Spark process): this smoke checks that every
    # command runs, not Spark's speed (benchmarks/engines.py measures that with its defaults).
    conf = tmp_path / "spark-conf"
    conf.mkdir()
    (conf / "spark-defaults.conf").write_text(
        "spark.sql.codegen.wholeStage false\nspark.sql.adaptive.enabled false\n"
        "spark.sql.shuffle.partitions 1\nspark.sql.codegen.cache.maxEntries 1000\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            str(ENGINES),
            "--sizes",
            "2k",
            "--engines",
            ",".join(engines),
            "--postgres",
            POSTGRES_URL,
            "--data-root",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "SPARK_CONF_DIR": str(conf)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows: dict[str, str] = {}  # the first table: seconds (one size: its two columns the same)
    for line in done.stdout.splitlines():
        if line.startswith("| "):
            rows.setdefault(line.split(" | ")[0].strip("| "), line)
    for command in ("train new", "predict", "evaluate", "export", "import", "table train"):
        times = re.findall(r"\| ([\d.]+|–)", rows[command])
        assert len(times) >= 2 * len(engines), rows[command]
        assert "–" not in times[: 2 * len(engines)], rows[command]


def test_engines_benchmark_runs_a_lazy_spark_result(monkeypatch: pytest.MonkeyPatch) -> None:
    """`explain` on Spark returns a lazy DataFrame: the benchmark must run it (collect), or its
    time covers only building the query. A stand-in of pyspark's class, so no JVM is needed."""
    monkeypatch.syspath_prepend(str(RUN.parent))  # engines.py imports its neighbours
    spec = importlib.util.spec_from_file_location("bench_engines", RUN.parent / "engines.py")
    assert spec is not None and spec.loader is not None
    engines = importlib.util.module_from_spec(spec)  # not tests/engines.py, also "engines"
    spec.loader.exec_module(engines)

    ran: list[bool] = []

    class DataFrame:  # what a pyspark DataFrame looks like to _rows: its module and collect()
        def collect(self) -> list[tuple[str, float]]:
            ran.append(True)
            return [("word", -1.5)]

    DataFrame.__module__ = "pyspark.sql.classic.dataframe"
    assert engines._rows(DataFrame()) == [("word", -1.5)] and ran == [True]
