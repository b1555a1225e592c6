"""Statements per command: a first training, retrainings (the fourth drops the oldest of
``--keep 3``), ``predict`` to a table (``--proba`` too) and ``evaluate``, on a small multinomial
model of tests/test_training_statements.py's corpus (issue 38). Counts, not seconds: what a
command costs in round trips does not depend on the machine's load.

    python benchmarks/statements.py [duckdb,sqlite,postgres,clickhouse]

    python benchmarks/statements.py spark --jobs  # and each Spark statement's jobs

PostgreSQL reads SQLNB_TEST_POSTGRES. On Spark (a ``local[2]`` session in this process) each
count is ``statements / jobs``: the Spark jobs a command ran, from Spark's status tracker (a
job group a command); with ``--jobs``, every statement that ran a job is listed with its jobs.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import pandas as pd

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))

from engines import open_engine  # noqa: E402
from test_training_statements import LABELS, TOKENS  # noqa: E402

import sqlnb  # noqa: E402

COMMANDS = ("train", "again", "again", "beyond keep", "predict", "predict --proba", "evaluate")


def counts(name: str, listed: bool = False) -> list[str]:
    """The statements of each of :data:`COMMANDS` on engine ``name`` (on Spark, with its
    jobs; ``listed``: print each statement's jobs)."""
    with contextlib.contextmanager(open_engine)(name) as engine:
        engine.load("tokens", pd.DataFrame(TOKENS, columns=["doc_id", "word", "count"]))
        engine.load("labels", pd.DataFrame(LABELS, columns=["doc_id", "label"]))
        db, seen = engine.db, []
        jobs: list[int] = []
        context = engine.db.connection.sparkContext if name == "spark" else None

        def timer(text: str, _seconds: float) -> None:
            seen.append(text)
            if context is not None:
                ran = len(context.statusTracker().getJobIdsForGroup(f"step{len(found)}"))
                if listed and ran > sum(jobs):
                    print(f"  {ran - sum(jobs):3} jobs: {' '.join(text.split())[:150]}")
                jobs.append(ran - sum(jobs))

        db.timer = timer
        steps = [lambda: sqlnb.train(db, "tokens", "labels", model="m")] * 4 + [
            lambda: sqlnb.load(db, "m").predict_to("tokens", "p1"),
            lambda: sqlnb.load(db, "m").predict_to("tokens", "p2", proba=True),
            lambda: sqlnb.load(db, "m").evaluate("tokens", "labels"),
        ]
        found: list[str] = []
        for step, command in zip(steps, COMMANDS, strict=True):
            seen.clear()
            jobs.clear()
            if context is not None:
                context.setJobGroup(f"step{len(found)}", command)
                if listed:
                    print(f"{command}:")
            step()
            found.append(f"{len(seen)} / {sum(jobs)}" if context is not None else str(len(seen)))
        return found


def main() -> None:
    names = (sys.argv[1] if len(sys.argv) > 1 else "duckdb,sqlite").split(",")
    listed = "--jobs" in sys.argv
    print("| engine | " + " | ".join(COMMANDS) + " |")
    print("|---" * (len(COMMANDS) + 1) + "|")
    for name in names:
        print(f"| {name} | " + " | ".join(counts(name, listed)) + " |", flush=True)


if __name__ == "__main__":
    main()
