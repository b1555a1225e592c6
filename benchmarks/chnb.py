"""ClickHouse's own Naive Bayes, in process (chDB), from raw text: the peer of `sqlnb train
--docs` + `sqlnb predict --docs` in benchmarks/speed.py.

    python benchmarks/chnb.py DATA_DIR

Reads DATA_DIR/train_docs.parquet and test_docs.parquet (doc_id, text, label), counts the
training n-grams with a GROUP BY over splitByWhitespace into a (class_id, ngram, count) table,
builds a NAIVE_BAYES dictionary over it (alpha 1, unigrams, token mode), classifies every test
text with naiveBayesClassifier into a table, and prints one JSON line: the seconds of the work
(after imports) and the test accuracy.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    data = Path(sys.argv[1]).resolve()
    start = time.perf_counter()
    from chdb import session

    folder = tempfile.mkdtemp(prefix="chnb-")
    s = session.Session(folder)
    work = time.perf_counter()
    train, test = (
        f"file('{data / name}', Parquet)" for name in ("train_docs.parquet", "test_docs.parquet")
    )
    s.query(
        "CREATE TABLE labels ENGINE = Memory AS SELECT label, "
        "toUInt32(row_number() OVER (ORDER BY label) - 1) AS class_id "
        f"FROM (SELECT DISTINCT label FROM {train})"
    )
    s.query(
        "CREATE TABLE counts (class_id UInt32, ngram String, count UInt64) "
        "ENGINE = MergeTree ORDER BY (class_id, ngram) AS "
        "SELECT l.class_id AS class_id, w AS ngram, count() AS count "
        f"FROM (SELECT text, label FROM {train}) AS t "
        "ARRAY JOIN splitByWhitespace(t.text) AS w JOIN labels AS l ON l.label = t.label "
        "GROUP BY l.class_id, w"
    )
    s.query(
        "CREATE DICTIONARY nb (ngram String, class_id UInt32 DEFAULT 0, count UInt64 DEFAULT 0) "
        "PRIMARY KEY ngram SOURCE(CLICKHOUSE(TABLE 'counts')) "
        "LAYOUT(NAIVE_BAYES(class_attribute 'class_id' n 1 mode 'token' alpha 1.0)) LIFETIME(0)"
    )
    s.query(
        "CREATE TABLE predictions ENGINE = MergeTree ORDER BY doc_id AS "
        f"SELECT doc_id, naiveBayesClassifier('nb', text) AS class_id FROM (SELECT * FROM {test})"
    )
    seconds = time.perf_counter() - work
    accuracy = float(
        str(
            s.query(
                "SELECT avg(l.label = t.label) FROM predictions AS p "
                "JOIN labels AS l ON l.class_id = p.class_id "
                f"JOIN (SELECT doc_id, label FROM {test}) AS t ON t.doc_id = p.doc_id",
                "CSV",
            )
        ).strip()
    )
    s.close()
    shutil.rmtree(folder, ignore_errors=True)
    print(
        json.dumps(
            {"seconds": seconds, "with_imports": time.perf_counter() - start, "accuracy": accuracy}
        )
    )


if __name__ == "__main__":
    main()
