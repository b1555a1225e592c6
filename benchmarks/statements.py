"""Statements per command: a first training, retrainings (the fourth drops the oldest of
``--keep 3``), ``predict`` to a table (``--proba`` too) and ``evaluate``, on a small multinomial
model of tests/test_training_statements.py's corpus (issue 38). Counts, not seconds: what a
command costs in round trips does not depend on the machine's load.

    python benchmarks/statements.py [duckdb,sqlite,postgres,clickhouse]

PostgreSQL reads SQLNB_TEST_POSTGRES. Spark's jobs per command: ``benchmarks/spark.py --ui``.
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


def counts(name: str) -> list[int]:
    """The statements of each of :data:`COMMANDS` on engine ``name``."""
    with contextlib.contextmanager(open_engine)(name) as engine:
        engine.load("tokens", pd.DataFrame(TOKENS, columns=["doc_id", "word", "count"]))
        engine.load("labels", pd.DataFrame(LABELS, columns=["doc_id", "label"]))
        db, seen = engine.db, []
        db.timer = lambda text, _seconds: seen.append(text)
        steps = [lambda: sqlnb.train(db, "tokens", "labels", model="m")] * 4 + [
            lambda: sqlnb.load(db, "m").predict_to("tokens", "p1"),
            lambda: sqlnb.load(db, "m").predict_to("tokens", "p2", proba=True),
            lambda: sqlnb.load(db, "m").evaluate("tokens", "labels"),
        ]
        found: list[int] = []
        for step in steps:
            seen.clear()
            step()
            found.append(len(seen))
        return found


def main() -> None:
    names = (sys.argv[1] if len(sys.argv) > 1 else "duckdb,sqlite").split(",")
    print("| engine | " + " | ".join(COMMANDS) + " |")
    print("|---" * (len(COMMANDS) + 1) + "|")
    for name in names:
        print(f"| {name} | " + " | ".join(map(str, counts(name))) + " |", flush=True)


if __name__ == "__main__":
    main()
