"""Issue 35: what writing DuckDB files in an older storage format costs.

    python benchmarks/storage.py                               # 1M token rows, 20 classes, 3 runs
    python benchmarks/storage.py --rows 10M --versions latest,v1.5.0 --repeat 3

sqlnb creates its DuckDB files in the storage format of DuckDB 1.5 (readable by the DuckDB
command-line client 1.5, which pip installs as ``duckdb-cli``), where DuckDB 2.0 would write its
own. For each storage version, a file is created in it and loaded with a seeded corpus
(benchmarks/generate.py: train and test tokens and labels), and then ``sqlnb train`` and
``sqlnb predict`` (into a table) run as whole processes, interleaved across the versions,
``--repeat`` times; the report gives the medians, their ratio to ``latest`` and the file's size.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
from generate import Spec, default_folder, generate, parse_size

ROOT = Path(__file__).resolve().parent.parent
TABLES = ("train_tokens", "train_labels", "test_tokens", "test_labels")


def load(path: Path, version: str, corpus: Path) -> None:
    with duckdb.connect(str(path), config={"storage_compatibility_version": version}) as con:
        for name in TABLES:
            con.execute(
                f"CREATE TABLE {name} AS SELECT * FROM read_parquet('{corpus / name}.parquet')"
            )


def timed(*args: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sqlnb", *args], env=env, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1M")
    parser.add_argument("--classes", type=int, default=20)
    parser.add_argument("--versions", default="latest,v1.5.0,v1.4.0")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    spec = Spec(rows=parse_size(args.rows), classes=args.classes)
    corpus = generate(spec, default_folder(spec.rows, spec.classes))
    versions = args.versions.split(",")
    times: dict[tuple[str, str], list[float]] = {}
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for version in versions:
            load(Path(tmp) / f"{version}.duckdb", version, corpus)
        for _ in range(args.repeat):
            for version in versions:
                base = Path(tmp) / f"{version}.duckdb"
                path = Path(tmp) / f"{version}-run.duckdb"
                shutil.copy(base, path)
                train = timed("train", str(path), "--tokens", "train_tokens", "--labels",
                              "train_labels", "--model", "m")  # fmt: skip
                predict = timed("predict", str(path), "--model", "m", "--tokens", "test_tokens",
                                "--output", "out")  # fmt: skip
                times.setdefault((version, "train"), []).append(train)
                times.setdefault((version, "predict"), []).append(predict)
                sizes[version] = path.stat().st_size
                path.unlink()
    print(f"{args.rows} token rows, {args.classes} classes; median of {args.repeat} whole "
          f"processes; load average {os.getloadavg()[0]:.1f}\n")  # fmt: skip
    print("| storage version | train s | / latest | predict s | / latest | file MB |")
    print("|---|---|---|---|---|---|")
    median = {key: statistics.median(v) for key, v in times.items()}
    first = versions[0]
    for v in versions:
        t, p = median[v, "train"], median[v, "predict"]
        print(f"| {v} | {t:.2f} | {t / median[first, 'train']:.2f}x | {p:.2f} | "
              f"{p / median[first, 'predict']:.2f}x | {sizes[v] / 1e6:.1f} |")  # fmt: skip


if __name__ == "__main__":
    main()
