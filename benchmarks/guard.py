"""The speed guard CI runs: sqlnb's cost as ratios to plain SQL measured side by side.

On generated data (1M token rows, 20 classes, 20,000 words; 200,000 test rows; texts for the
functions), one DuckDB database, one process, each pair measured alternately and the medians
of ``--repeat`` runs compared:

- ``train_over_group_by``: ``sqlnb.train`` (the model's tables and its SQL functions' lookup
  rows) ÷ a plain ``GROUP BY label, word`` of the same join;
- ``predict_over_join_sum``: ``predict_to`` ÷ the plain join of the test tokens to a table of
  per-class weights and ``SUM`` per document and class;
- ``functions_over_predict``: ``sqlnb_classify`` + ``sqlnb_proba`` over texts ÷ ``predict_to``
  of the same texts (their probabilities are checked equal), with the model's lookup row
  stored (``sqlnb functions DB``, :func:`sqlnb.store_functions`);
- ``unstored_functions_over_predict``: the same right after a training, when the macros build
  the model's lookup row inside each query (a write stores none: issue 35).

Times are CPU seconds of this process (DuckDB on one thread): on a machine shared with
other work they move much less than wall-clock times, and a ratio of two less still. The run
fails (exit 1) when a ratio exceeds 1.5 times the value recorded in ``guard.json``; ``--record``
writes the measured values there, which changes only in a commit that says why.

    python benchmarks/guard.py            # check (CI: .ci/run)
    python benchmarks/guard.py --record   # measure and record
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import duckdb

import sqlnb
from sqlnb import Docs

RECORDED = Path(__file__).with_name("guard.json")
LIMIT = 1.5  # a ratio may grow by this factor before the guard fails

DATA = [
    # 1M training token rows: 50,000 documents of 20 rows, 20 classes, 20,000 words
    """CREATE TABLE tokens AS SELECT i // 20 AS doc_id,
       'w' || ((i * 7919 + (i // 20 % 20) * 131) % 20000) AS word, 1 + i % 3 AS count
       FROM range(1000000) AS r(i)""",
    "CREATE TABLE labels AS SELECT d AS doc_id, 'c' || (d % 20) AS label FROM range(50000) r(d)",
    # 200,000 test rows: 10,000 documents
    """CREATE TABLE test_tokens AS SELECT 1000000 + i // 20 AS doc_id,
       'w' || ((i * 104729) % 20011) AS word, 1 + i % 2 AS count FROM range(200000) AS r(i)""",
    # texts: 5,000 to train on and 2,000 to classify, 30 words each out of 3,000
    """CREATE TABLE docs AS SELECT d AS doc_id, 'c' || (d % 20) AS label,
       (SELECT string_agg('t' || (hash(d * 100 + j) % (1000 + 100 * (d % 20))), ' ')
        FROM range(30) AS s(j)) AS text FROM range(5000) AS r(d)""",
    """CREATE TABLE new_docs AS SELECT d AS doc_id,
       (SELECT string_agg('t' || (hash(-d * 100 - j) % 3100), ' ') FROM range(30) AS s(j)) AS text
       FROM range(2000) AS r(d)""",
]
GROUP_BY = """CREATE OR REPLACE TABLE plain_counts AS
    SELECT l.label, t.word, SUM(t.count) AS n
    FROM tokens AS t JOIN labels AS l USING (doc_id) GROUP BY l.label, t.word"""
WEIGHTS = """CREATE OR REPLACE TABLE plain_weights AS
    SELECT label, word, LN((n + 1.0) / (SUM(n) OVER (PARTITION BY label) + 20000)) AS w
    FROM plain_counts"""
JOIN_SUM = """CREATE OR REPLACE TABLE plain_scores AS
    SELECT t.doc_id, w.label, SUM(t.count * w.w) AS score
    FROM test_tokens AS t JOIN plain_weights AS w USING (word) GROUP BY t.doc_id, w.label"""
FUNCTIONS = """CREATE OR REPLACE TABLE function_out AS
    SELECT doc_id, sqlnb_classify('texts', text) AS label, sqlnb_proba('texts', text) AS proba
    FROM new_docs"""


def measure(repeat: int) -> dict[str, float]:
    """The three ratios (medians of ``repeat`` alternating runs), in a fresh database."""
    con = duckdb.connect(config={"threads": 1})  # one thread: CPU time as steady as it gets
    unstored_ratios: list[float] = []
    for statement in DATA:
        con.execute(statement)
    con.execute(GROUP_BY)
    con.execute(WEIGHTS)
    texts = sqlnb.train(con, Docs("docs"), model="texts")
    for _ in range(repeat):  # before the lookup row is stored: built inside each query
        start = time.process_time()
        con.execute(FUNCTIONS)
        unstored = time.process_time() - start
        start = time.process_time()
        texts.predict_to(Docs("new_docs"), "text_out", replace=True)
        unstored_ratios.append(unstored / (time.process_time() - start))
    sqlnb.store_functions(con)
    times: dict[str, list[float]] = {}

    def timed(name: str, step: Callable[[], object]) -> None:
        start = time.process_time()
        step()
        times.setdefault(name, []).append(time.process_time() - start)

    for _ in range(repeat):
        timed("group", partial(con.execute, GROUP_BY))
        timed("train", partial(sqlnb.train, con, "tokens", "labels", model="m"))
        model = sqlnb.load(con, "m")
        timed("predict", partial(model.predict_to, "test_tokens", "out", replace=True))
        timed("join", partial(con.execute, JOIN_SUM))
        timed("fn", partial(con.execute, FUNCTIONS))
        timed("text_predict", partial(texts.predict_to, Docs("new_docs"), "text_out", replace=True))
    differ = con.execute(
        "SELECT count(*) FROM function_out AS f FULL JOIN text_out AS t USING (doc_id) "
        "WHERE NOT abs(f.proba - t.proba) <= 1e-9"  # labels: a tie may be broken either way
    ).fetchone()
    if differ != (0,):
        raise SystemExit(f"the functions differ from predict on {differ[0]} texts")
    con.close()
    median = {k: statistics.median(v) for k, v in times.items()}
    print(json.dumps({k: round(v, 4) for k, v in median.items()}), file=sys.stderr)
    return {
        "train_over_group_by": median["train"] / median["group"],
        "predict_over_join_sum": median["predict"] / median["join"],
        "functions_over_predict": median["fn"] / median["text_predict"],
        "unstored_functions_over_predict": statistics.median(unstored_ratios),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", action="store_true", help="write the ratios to guard.json")
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    ratios = measure(options.repeat)
    if options.record:
        RECORDED.write_text(
            json.dumps({k: round(v, 2) for k, v in ratios.items()}, indent=2) + "\n"
        )
        print(f"recorded in {RECORDED}: {ratios}")
        return
    recorded = json.loads(RECORDED.read_text())
    failed = False
    for name, value in ratios.items():
        limit = LIMIT * recorded[name]
        verdict = "ok" if value <= limit else "TOO SLOW"
        failed |= value > limit
        print(f"{name}: {value:.2f} (recorded {recorded[name]:.2f}, limit {limit:.2f}) {verdict}")
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
