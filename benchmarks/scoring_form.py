"""Issue 37's measurement: `sqlnb predict --docs` and the SQL functions (sqlnb_classify +
sqlnb_proba over every text, in DuckDB's own client with the lookup rows stored) at two
commits of sqlnb, on the bundled fine-food reviews and on a corpus of ../shared/data's layout
(BBC news); whole processes, the two commits interleaved run by run, medians.

    python benchmarks/scoring_form.py --before 473d932 [--after DIR] [--repeat 5]
        [--data ../shared/data/bbc_news]

``--before`` is a commit of this repository (exported to a temporary folder), ``--after`` a
checkout (default: the one holding this file). Each commit trains its own model (multinomial,
unigrams, the training split) in its own DuckDB file; every run checks that the functions'
labels are predict's.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from functions import QUERY, client, load, predicted

from sqlnb.demo import DATA

HERE = Path(__file__).resolve().parent.parent


def cpu() -> float:
    """The CPU seconds (user and system, every thread) of this process's ended children."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def sqlnb(source: Path, *args: str) -> tuple[float, float]:
    """One sqlnb command as its own process, with ``source``'s sqlnb: its seconds, wall and
    CPU."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    start, used = time.perf_counter(), cpu()
    subprocess.run([sys.executable, "-m", "sqlnb", *args], check=True, capture_output=True,
                   env=env)  # fmt: skip
    return time.perf_counter() - start, cpu() - used


def exported(commit: str, into: Path) -> Path:
    """The files of ``commit`` in the folder ``into``."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(HERE), "archive", commit], check=True,
                             capture_output=True).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", type=Path, default=HERE)
    parser.add_argument("--data", type=Path, action="append", default=[])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    corpora = [DATA, *(d / "docs.parquet" for d in args.data)]
    with tempfile.TemporaryDirectory() as tmp:
        sources = {args.before: exported(args.before, Path(tmp) / "before"), "after": args.after}
        print(f"load average at the start: {os.getloadavg()[0]:.1f}; medians of {args.repeat}")
        print("| texts | sqlnb | predict --docs (CPU) | functions (CPU) | labels equal |")
        print("|---|---|--:|--:|---|")
        for n, docs in enumerate(corpora):
            urls = {}
            for name, source in sources.items():
                urls[name] = f"{tmp}/{n}_{len(urls)}.duckdb"
                load("duckdb", urls[name], docs)
                sqlnb(source, "train", urls[name], "--model", "m", "--docs", "train")
                sqlnb(source, "functions", urls[name])  # the lookup rows stored
            times: dict[str, list[list[tuple[float, float]]]] = {s: [[], []] for s in sources}
            same = {}
            for _ in range(args.repeat):
                for name, source in sources.items():  # interleaved
                    times[name][0].append(sqlnb(source, "predict", urls[name], "--model", "m",
                        "--docs", "texts", "--output", "by_predict", "--replace"))  # fmt: skip
                    used = cpu()
                    seconds, rows = client("duckdb", urls[name], QUERY.format(m="m"))
                    times[name][1].append((seconds, cpu() - used))
                    same[name] = rows == predicted("duckdb", urls[name], "by_predict")
            for name in sources:
                p, f = (
                    f"{statistics.median(w for w, _ in t):.2f} s "
                    f"({statistics.median(c for _, c in t):.2f} s)"
                    for t in times[name]
                )
                shown = docs.parent.name if n else "bundled reviews"
                print(f"| {shown} | {name} | {p} | {f} | {same[name]} |")
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
