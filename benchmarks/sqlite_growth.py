"""Issue 35: SQLite's predict and evaluate grow linearly with the documents, at any number of
classes, side by side with DuckDB.

    python benchmarks/sqlite_growth.py          # 6, 11, 42 classes; 600, 2,400, 4,800 docs
    python benchmarks/sqlite_growth.py --classes 11 --docs 600,2400 --repeat 1
    python benchmarks/sqlite_growth.py --sqlnb-src DIR  # another checkout of sqlnb

For each number of classes K, a seeded corpus of short texts (a shared vocabulary of 2,000
words and 300 words of each class's own, 5 to 60 words a text; 3,000 training texts) is
written into a SQLite file and a DuckDB file, one model is trained in each (``sqlnb train
--docs``), and then every measurement is a whole process, ``sqlnb predict --docs`` (into a
table) or ``sqlnb evaluate --docs``, over the first N test texts, repeated ``--repeat`` times
(interleaved) and reported as medians: seconds, the growth from the smallest size (SQLite must
stay within 5x for 4x the documents) and SQLite's time over DuckDB's (within 5x).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parent.parent
VOCABULARY, OWN, TRAIN = 2000, 300, 3000
COMMANDS = ("predict", "evaluate")


def texts(k: int, n: int, seed: int) -> list[tuple[int, str, str]]:
    """``n`` (doc_id, text, label) rows of ``k`` classes, seeded."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        c = rng.randrange(k)
        words = [
            f"w{rng.randrange(VOCABULARY)}"
            if rng.random() < 0.5
            else f"w{VOCABULARY + c * OWN + rng.randrange(OWN)}"
            for _ in range(rng.randint(5, 60))
        ]
        rows.append((i, " ".join(words), f"class{c:02d}"))
    return rows


def load(folder: Path, k: int, sizes: list[int]) -> dict[str, str]:
    """A SQLite and a DuckDB file with the tables docs (training) and test_N (N test texts)."""
    train, test = texts(k, TRAIN, 1), texts(k, max(sizes), 2)
    targets = {"sqlite": f"sqlite:///{folder}/k{k}.sqlite", "duckdb": str(folder / f"k{k}.duckdb")}
    lite = sqlite3.connect(folder / f"k{k}.sqlite")
    duck = duckdb.connect(targets["duckdb"])
    for con in (lite, duck):
        for name, rows in [("docs", train)] + [(f"test_{n}", test[:n]) for n in sizes]:
            con.execute(f"CREATE TABLE {name} (doc_id BIGINT, text VARCHAR, label VARCHAR)")
            con.executemany(f"INSERT INTO {name} VALUES (?, ?, ?)", rows)
        con.commit()
        con.close()
    return targets


def sqlnb(src: Path, *args: str) -> float:
    """Seconds of one whole ``sqlnb`` process."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sqlnb", *args], env=env, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - start


def command(name: str, target: str, n: int) -> list[str]:
    docs = ["--docs", f"test_{n}", "--text-column", "text", "--model", "m"]
    if name == "predict":
        return ["predict", target, *docs, "--output", "out", "--replace"]
    return ["evaluate", target, *docs, "--label-column", "label"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classes", default="6,11,42")
    parser.add_argument("--docs", default="600,2400,4800")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sqlnb-src", type=Path, default=ROOT)
    args = parser.parse_args()
    sizes = [int(n) for n in args.docs.split(",")]
    print(f"sqlnb from {args.sqlnb_src}; median of {args.repeat} whole processes; "
          f"load average {os.getloadavg()[0]:.1f}\n")  # fmt: skip
    print("| classes | command | documents | SQLite s | growth | DuckDB s | growth | / DuckDB |")
    print("|---|---|---|---|---|---|---|---|")
    for k in (int(c) for c in args.classes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            targets = load(Path(tmp), k, sizes)
            for target in targets.values():
                sqlnb(args.sqlnb_src, "train", target, "--docs", "docs", "--text-column", "text",
                      "--label-column", "label", "--model", "m")  # fmt: skip
            for name in COMMANDS:
                times: dict[tuple[str, int], list[float]] = {}
                for _ in range(args.repeat):
                    for n in sizes:
                        for engine, target in targets.items():
                            seconds = sqlnb(args.sqlnb_src, *command(name, target, n))
                            times.setdefault((engine, n), []).append(seconds)
                median = {key: statistics.median(v) for key, v in times.items()}
                for n in sizes:
                    lite, duck = median["sqlite", n], median["duckdb", n]
                    grow_l, grow_d = (
                        lite / median["sqlite", sizes[0]],
                        duck / median["duckdb", sizes[0]],
                    )
                    print(f"| {k} | {name} | {n:,} | {lite:.2f} | {grow_l:.2f}x | {duck:.2f} | "
                          f"{grow_d:.2f}x | {lite / duck:.2f}x |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
