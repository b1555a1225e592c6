"""Ad-hoc SQL against `sqlnb predict` (issue 28): sqlnb_classify + sqlnb_proba over a table of
texts, run by the engine's own client without sqlnb's command line, against `sqlnb predict
--docs` on the same texts; whole processes, side by side, medians. Also the latency of one
text through both functions on a warm connection.

    python benchmarks/functions.py [--engines duckdb,sqlite,postgres,clickhouse]
        [--postgres URL] [--data DIR] [--repeat 3]

The texts are the bundled fine-food reviews (5,000; sqlnb/data/fine_foods.parquet), or with
--data a folder of ../shared/data's layout (docs.parquet); the models are multinomial,
trained on the training split with unigrams and with 1-2-grams. The function side's process is
the engine's client: python with duckdb, python with sqlite3 and sqlnb.register_sqlite
(SQLite has no SQL-defined functions), psql, python with chdb. Every run checks that the
functions' labels are predict's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

from sqlnb.demo import DATA

SQLNB = [sys.executable, "-m", "sqlnb"]
MODELS = {"unigrams": [], "1-2-grams": ["--ngrams", "1-2"]}
QUERY = (
    "SELECT doc_id, sqlnb_classify('{m}', text) AS label, sqlnb_proba('{m}', text) AS proba "
    "FROM texts"
)
ONE = "SELECT sqlnb_classify('{m}', 'the best coffee I have had in years, will buy again'), " \
    "sqlnb_proba('{m}', 'the best coffee I have had in years, will buy again')"  # fmt: skip

CLIENTS = {  # one process: read the functions' rows, print the number of rows and a checksum
    "duckdb": """
import duckdb, sys, json
con = duckdb.connect(sys.argv[1], read_only=True)
con.execute("SET enable_progress_bar = false")  # it draws on stdout after 2 s
rows = con.execute(sys.argv[2]).fetchall()
print(json.dumps(sorted([str(d), str(l)] for d, l, p in rows)))
""",
    "sqlite": """
import sqlite3, sys, json, sqlnb
con = sqlite3.connect(sys.argv[1])
sqlnb.register_sqlite(con)
rows = con.execute(sys.argv[2]).fetchall()
print(json.dumps(sorted([str(d), str(l)] for d, l, p in rows)))
""",
    "clickhouse": """
import sys, json
from chdb import session
s = session.Session(sys.argv[1])
out = s.query(sys.argv[2], "JSONCompact")
rows = json.loads(str(out))["data"]
print(json.dumps(sorted([str(d), str(l)] for d, l, p in rows)))
""",
}


def run(args: list[str], **kw: object) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True, **kw)  # type: ignore[call-overload]
    return time.perf_counter() - start


def client(engine: str, url: str, query: str) -> tuple[float, list]:
    """The functions' rows by the engine's own client, in a process of its own."""
    start = time.perf_counter()
    if engine == "postgres":
        done = subprocess.run(
            ["psql", url, "-AtF", "\t", "-c", query], check=True, capture_output=True, text=True
        )
        rows = sorted(line.split("\t")[:2] for line in done.stdout.splitlines() if line)
    else:
        target = url.removeprefix("chdb://").removeprefix("sqlite:///")
        done = subprocess.run(
            [sys.executable, "-c", CLIENTS[engine], target, query],
            check=True,
            capture_output=True,
            text=True,
        )
        try:
            rows = json.loads(done.stdout)
        except json.JSONDecodeError:
            raise SystemExit(f"{engine}: the client printed {done.stdout[:300]!r}") from None
    return time.perf_counter() - start, rows


def predicted(engine: str, url: str, output: str) -> list:
    """predict's labels, read back from the table it wrote."""
    query = f"SELECT doc_id, label, proba FROM {output}"
    return client(engine, url, query)[1]


def latency(engine: str, url: str, model: str, repeat: int = 7) -> float | None:
    """One text through both functions on a warm connection: the median of ``repeat``."""
    query = ONE.format(m=model)
    if engine == "duckdb":
        con = duckdb.connect(url, read_only=True)
        run_one = lambda: con.execute(query).fetchall()  # noqa: E731
    elif engine == "postgres":
        import psycopg

        pg = psycopg.connect(url, autocommit=True)
        run_one = lambda: pg.execute(query).fetchall()  # noqa: E731
    else:
        return None
    run_one()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run_one()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def load(engine: str, url: str, docs: Path) -> None:
    """The texts and the training split into the engine's database."""
    frame = (
        duckdb.connect()
        .execute("SELECT doc_id, text, label, split FROM read_parquet(?)", [str(docs)])
        .df()
    )
    train = frame[frame["split"] == "train"][["doc_id", "text", "label"]]
    texts = frame[["doc_id", "text"]]
    if engine == "duckdb":
        with duckdb.connect(url) as con:
            con.register("train_f", train)
            con.register("texts_f", texts)
            con.execute("CREATE TABLE train AS SELECT * FROM train_f")
            con.execute("CREATE TABLE texts AS SELECT * FROM texts_f")
    elif engine == "sqlite":
        import sqlite3

        with sqlite3.connect(url.removeprefix("sqlite:///")) as con:
            train.to_sql("train", con, index=False)
            texts.to_sql("texts", con, index=False)
    elif engine == "postgres":
        for name, part in (("train", train), ("texts", texts)):
            _pg_copy(url, name, part)
    elif engine == "clickhouse":
        from chdb import session

        s = session.Session(url.removeprefix("chdb://"))
        for name, part in (("train", train), ("texts", texts)):
            path = Path(url.removeprefix("chdb://")).parent / f"{name}.parquet"
            part.to_parquet(path)
            s.query(f"DROP TABLE IF EXISTS {name}")
            s.query(
                f"CREATE TABLE {name} ENGINE = MergeTree ORDER BY tuple() AS "
                f"SELECT * FROM file('{path}', Parquet)"
            )
        s.close()


def _pg_copy(url: str, name: str, part: object) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        con.execute(f"DROP TABLE IF EXISTS {name}")
        columns = ", ".join(
            f'"{c}" {"bigint" if c == "doc_id" else "text"}'
            for c in part.columns  # type: ignore[attr-defined]
        )
        con.execute(f"CREATE TABLE {name} ({columns})")
        with con.cursor().copy(f"COPY {name} FROM STDIN") as copy:
            for row in part.itertuples(index=False):  # type: ignore[attr-defined]
                copy.write_row(row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--engines", default="duckdb,sqlite,postgres,clickhouse")
    parser.add_argument("--postgres", default=os.environ.get("SQLNB_TEST_POSTGRES"))
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    docs = args.data / "docs.parquet" if args.data else DATA
    print(f"texts: {docs}; medians of {args.repeat}, whole processes")
    print("| engine | model | functions | `sqlnb predict --docs` | ratio | one text, both |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for engine in args.engines.split(","):
            url = {
                "duckdb": f"{tmp}/b.duckdb",
                "sqlite": f"sqlite:///{tmp}/b.sqlite",
                "postgres": args.postgres or "",
                "clickhouse": f"chdb://{tmp}/ch/db",
            }[engine]
            if engine == "postgres" and not url:
                print("| postgres | (no --postgres URL) | | | | |")
                continue
            if engine == "clickhouse":
                Path(f"{tmp}/ch").mkdir()
            load(engine, url, docs)
            for name, options in MODELS.items():
                model = name.replace("-", "_")
                run([*SQLNB, "train", url, "--model", model, "--docs", "train", *options])
                states = [name]
                if engine == "duckdb":  # before and after `sqlnb functions` stores the rows
                    states = [f"{name}, rows built per query", f"{name}, rows stored"]
                for state in states:
                    if state.endswith("rows stored"):
                        stored = run([*SQLNB, "functions", url])
                        state += f" in {stored:.2f} s"
                    measure(engine, url, model, state, args.repeat)
            if engine == "clickhouse":
                shutil.rmtree(f"{tmp}/ch", ignore_errors=True)


def measure(engine: str, url: str, model: str, name: str, repeat: int) -> None:
    """One row of the table: the functions against predict --docs, medians of ``repeat``."""
    functions, predict = [], []
    query = QUERY.format(m=model)
    for _ in range(repeat):
        seconds, rows = client(engine, url, query)
        functions.append(seconds)
        predict.append(
            run(
                [
                    *SQLNB,
                    "predict",
                    url,
                    "--model",
                    model,
                    "--docs",
                    "texts",
                    "--output",
                    "by_predict",
                    "--replace",
                ]
            )
        )
    same = rows == predicted(engine, url, "by_predict")
    one = latency(engine, url, model)
    f, p = statistics.median(functions), statistics.median(predict)
    shown = "" if one is None else f"{one * 1000:.0f} ms"
    mark = "" if same else " (labels differ!)"
    print(f"| {engine} | {name}{mark} | {f:.2f} s | {p:.2f} s | {f / p:.2f}× | {shown} |")


if __name__ == "__main__":
    main()
