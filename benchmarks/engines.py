"""The benchmark of issue 16: every command on every engine, at two sizes.

    python benchmarks/engines.py --quick          # 20k and 80k token rows
    python benchmarks/engines.py --sizes 2k       # one size, the smallest (a test runs it)
    python benchmarks/engines.py                  # 500k and 2M token rows, 100k and 400k wide rows
    python benchmarks/engines.py --engines duckdb,postgres --postgres postgresql://...

For each size a seeded text corpus (benchmarks/generate.py, 3 classes) and a wide table of
Gaussian features are loaded into each engine (DuckDB and SQLite files, a fresh PostgreSQL
schema, a local[2] Spark session with its own warehouse). Then, through sqlnb's Python API in
one process per engine, with another model already in the database, each command is timed:

    train new      a model name the database has never held
    retrain        the same name again (atomic replacement)
    retune         another alpha, from the stored counts
    predict        the test tokens into a table
    evaluate       accuracy, log-loss and the confusion matrix of the test set
    classify       the predicted label written into a column of the test labels table
    explain        one test document's word contributions
    report         the HTML report of the test set
    export         the model to a folder of Parquet files
    import         that folder back under a new name
    append         the test set added to the model's counts
    tune           4 alphas x 5 folds (DuckDB only)
    table train    a Gaussian model of the wide table
    table predict  its test rows into a table

The report gives each command's seconds, its ratio to DuckDB's at the same size, and its growth
from the small size to the large one (4x the rows).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import sqlglot
from generate import DATA, Spec, default_folder, generate, parse_size, size_name

HERE = Path(__file__).resolve().parent
ENGINES = ("duckdb", "sqlite", "postgres", "spark")
POSTGRES = os.environ.get("SQLNB_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:54329/postgres")
TABLES = ("train_tokens", "train_labels", "test_tokens", "test_labels", "wide_train", "wide_test")
COMMANDS = (
    "train new",
    "retrain",
    "retune",
    "predict",
    "evaluate",
    "classify",
    "explain",
    "report",
    "export",
    "import",
    "append",
    "tune",
    "table train",
    "table predict",
)


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def wide(folder: Path, rows: int, seed: int = 0) -> None:
    """A wide table of ``rows`` examples: 3 classes, 10 Gaussian features whose means depend on
    the class; 80/20 split into wide_train.parquet and wide_test.parquet."""
    if (folder / "wide_test.parquet").exists():
        return
    features = ", ".join(
        f"(label_id * {0.3 + 0.1 * j:.1f} + sqrt(-2 * ln(1 - random())) "
        f"* cos(2 * pi() * random())) AS x{j}"
        for j in range(10)
    )
    with duckdb.connect() as con:
        con.execute(f"SELECT setseed({seed / 1000})")
        con.execute(
            f"CREATE TABLE w AS SELECT i AS id, 'c' || label_id AS label, {features} "
            f"FROM (SELECT i, CAST(floor(random() * 3) AS INTEGER) AS label_id "
            f"FROM range({rows}) AS t(i))"
        )
        for name, where in (("wide_train", "id % 5 <> 0"), ("wide_test", "id % 5 = 0")):
            target = str(folder / f"{name}.parquet").replace("'", "''")
            con.execute(f"COPY (SELECT * FROM w WHERE {where} ORDER BY id) TO '{target}'")


# --- engines -------------------------------------------------------------------------------


@contextmanager
def engine(name: str, work: Path, postgres: str) -> Iterator[Any]:
    """A sqlnb Database on an empty namespace of the engine, removed afterwards."""
    import sqlnb

    if name == "duckdb":
        db = sqlnb.connect(str(work / "bench.duckdb"), create=True)
    elif name == "sqlite":
        db = sqlnb.connect(sqlite3.connect(work / "bench.sqlite", isolation_level=None))
    elif name == "postgres":
        import psycopg

        connection = psycopg.connect(postgres, autocommit=True)
        schema = f"sqlnb_bench_{os.getpid()}"
        connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        connection.execute(f"CREATE SCHEMA {schema}")
        connection.execute(f"SET search_path TO {schema}")
        db = sqlnb.connect(connection)
    else:
        from pyspark.sql import SparkSession

        spark = (
            SparkSession.builder.master("local[2]")
            .appName("sqlnb-bench")
            .config("spark.sql.warehouse.dir", str(work / "warehouse"))
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.memory", "4g")
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        db = sqlnb.connect(spark)
    try:
        yield db
    finally:
        if name == "postgres":
            db.connection.execute(f"DROP SCHEMA {schema} CASCADE")
        db.close()


def load(db: Any, folder: Path) -> None:
    """Every table of the corpus into the engine, through its bulk path."""
    for table in TABLES:
        with db.parquet(folder / f"{table}.parquet", "sqlnb_bench_load"):
            db.execute(sqlglot.parse_one(f"CREATE TABLE {table} AS SELECT * FROM sqlnb_bench_load"))


# --- the commands --------------------------------------------------------------------------


def commands(db: Any, work: Path) -> dict[str, Callable[[], Any]]:
    import sqlnb
    from sqlnb.files import export_model, import_model
    from sqlnb.report import write_report

    def model() -> sqlnb.Model:
        return sqlnb.load(db, "m")

    def first_doc() -> str:
        return str(db.fetch(sqlglot.parse_one("SELECT MIN(doc_id) FROM test_labels"))[0][0])

    table = sqlnb.Table("wide_train")
    steps: dict[str, Callable[[], Any]] = {
        "train new": lambda: sqlnb.train(db, "train_tokens", "train_labels", model="m"),
        "retrain": lambda: sqlnb.train(db, "train_tokens", "train_labels", model="m"),
        "retune": lambda: sqlnb.retune(db, "m", alpha=0.5),
        "predict": lambda: model().predict_to("test_tokens", "predictions", replace=True),
        "evaluate": lambda: model().evaluate("test_tokens", "test_labels"),
        "classify": lambda: model().classify("test_labels", "doc_id", "test_tokens", "predicted"),
        "explain": lambda: _rows(model().explain("test_tokens", doc=first_doc())),
        "report": lambda: write_report(model(), "test_tokens", "test_labels", work / "r.html"),
        "export": lambda: export_model(db, "m", work / "m.sqlnb"),
        "import": lambda: import_model(db, work / "m.sqlnb", "m_imported"),
        "append": lambda: sqlnb.append(db, "test_tokens", "test_labels", model="m"),
        "table train": lambda: sqlnb.train(db, table, model="g", kind="gaussian"),
        "table predict": lambda: sqlnb.load(db, "g").predict_to(
            sqlnb.Table("wide_test", label=None), "table_predictions", replace=True
        ),
    }
    if db.dialect.name == "duckdb":
        steps["tune"] = lambda: sqlnb.tune(db, "train_tokens", "train_labels", folds=5)
    return steps


def _rows(result: Any) -> Any:
    if type(result).__module__.startswith("pyspark"):  # a Spark DataFrame is lazy: run it
        return result.collect()
    return result.fetchall() if hasattr(result, "fetchall") else result


def run_engine(name: str, folder: Path, postgres: str) -> dict[str, float]:
    """One engine, one size: load, train another model (untimed), then every command."""
    import sqlnb

    times: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="sqlnb-engines-") as tmp:
        work = Path(tmp)
        with engine(name, work, postgres) as db:
            start = time.perf_counter()
            load(db, folder)
            log(f"  {name}: loaded in {time.perf_counter() - start:.1f} s")
            sqlnb.train(db, "train_tokens", "train_labels", model="other", alpha=0.1)
            for command, step in commands(db, work).items():
                start = time.perf_counter()
                step()
                times[command] = time.perf_counter() - start
                log(f"  {name}: {command} {times[command]:.2f} s")
    return times


# --- the report ----------------------------------------------------------------------------


def fmt(value: float | None, digits: int = 2, suffix: str = "") -> str:
    return "–" if value is None else f"{value:.{digits}f}{suffix}"


def report(sizes: list[int], results: dict[str, dict[int, dict[str, float]]]) -> str:
    small, large = sizes[0], sizes[-1]
    engines = list(results)
    versions = {"duckdb": duckdb.__version__}
    lines = [
        f"# sqlnb on every engine ({time.strftime('%Y-%m-%d')})",
        "",
        f"{platform.machine()}, {os.cpu_count()} cores; Python {platform.python_version()}, "
        + ", ".join(f"{k} {v}" for k, v in versions.items())
        + f"; one process per engine and size, wall seconds of each API call. Sizes: "
        f"{size_name(small)} and {size_name(large)} token rows (3 classes), wide tables of "
        f"{wide_rows(small):,} and {wide_rows(large):,} rows.",
        "",
        "| command | "
        + " | ".join(f"{e} {size_name(small)} | {e} {size_name(large)}" for e in engines)
        + " |",
        "|---|" + "--:|--:|" * len(engines),
    ]
    for command in COMMANDS:
        cells = []
        for e in engines:
            for size in (small, large):
                cells.append(fmt(results[e].get(size, {}).get(command)))
        lines.append(f"| {command} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"Ratio to DuckDB at {size_name(large)} and growth from {size_name(small)} to "
        f"{size_name(large)} (time at 4x the rows ÷ time):",
        "",
        "| command | " + " | ".join(f"{e} ÷ DuckDB | {e} growth" for e in engines) + " |",
        "|---|" + "--:|--:|" * len(engines),
    ]
    for command in COMMANDS:
        cells = []
        reference = results.get("duckdb", {}).get(large, {}).get(command)
        for e in engines:
            big = results[e].get(large, {}).get(command)
            little = results[e].get(small, {}).get(command)
            ratio = big / reference if big is not None and reference else None
            growth = big / little if big is not None and little else None
            cells += [fmt(ratio, 2, "×"), fmt(growth, 2, "×")]
        lines.append(f"| {command} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def wide_rows(rows: int) -> int:
    return rows // 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="20k and 80k token rows")
    parser.add_argument("--sizes", default="500k,2M")
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--postgres", default=POSTGRES, help="a PostgreSQL URL")
    parser.add_argument("--data-root", type=Path, default=DATA)
    parser.add_argument("--markdown", type=Path, help="also write the report to this file")
    parser.add_argument("--one", nargs=2, metavar=("ENGINE", "FOLDER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:  # one engine and size, in its own process: the times as JSON on stdout
        print(json.dumps(run_engine(args.one[0], Path(args.one[1]), args.postgres)))
        return
    sizes = [parse_size(s) for s in ("20k,80k" if args.quick else args.sizes).split(",")]
    engines = [e for e in args.engines.split(",") if e]
    results: dict[str, dict[int, dict[str, float]]] = {e: {} for e in engines}
    for rows in sizes:
        folder = generate(Spec(rows=rows, classes=3), default_folder(rows, 3, root=args.data_root))
        wide(folder, wide_rows(rows))
        for name in engines:
            log(f"{size_name(rows)} on {name}")
            done = subprocess.run(
                [sys.executable, __file__, "--one", name, str(folder), "--postgres", args.postgres],
                stdout=subprocess.PIPE,
                text=True,
            )
            if done.returncode != 0:
                raise SystemExit(f"{name} at {size_name(rows)} failed (exit {done.returncode})")
            results[name][rows] = json.loads(done.stdout.strip().splitlines()[-1])
    text = report(sizes, results)
    print(text)
    if args.markdown:
        args.markdown.write_text(text)


if __name__ == "__main__":
    main()
