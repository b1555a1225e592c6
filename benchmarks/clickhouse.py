"""sqlnb on ClickHouse against ClickHouse's own Naive Bayes, in one chDB session, from raw text.

    python benchmarks/clickhouse.py DATA_DIR [--repeat 3]

DATA_DIR holds train_docs.parquet and test_docs.parquet (doc_id, text, label), as
benchmarks/speed.py writes them (benchmarks/data/1M_k20, ...). Both are loaded into tables of one
chDB folder; then, each run, in the same session:

- ClickHouse: the training n-grams counted with a GROUP BY over splitByWhitespace into a
  (class_id, ngram, count) table, a NAIVE_BAYES dictionary over it (alpha 1, unigrams), every
  test text classified by naiveBayesClassifier into a table;
- sqlnb: ``sqlnb.train(db, Docs("train"))`` (its SQL tokenizer, lowercased, the same words on
  these texts) and ``predict_to(Docs("test"), ...)`` into a table.

Prints the median seconds of each and its test accuracy (labels compared in SQL).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import clickhouse_connect

import sqlnb

COUNTS = """
CREATE TABLE nb_counts (class_id UInt32, ngram String, count UInt64)
ENGINE = MergeTree ORDER BY (class_id, ngram) AS
SELECT l.class_id AS class_id, w AS ngram, count() AS count
FROM train AS t ARRAY JOIN splitByWhitespace(t.text) AS w
JOIN nb_labels AS l ON l.label = t.label
GROUP BY l.class_id, w"""
DICTIONARY = """
CREATE DICTIONARY nb (ngram String, class_id UInt32 DEFAULT 0, count UInt64 DEFAULT 0)
PRIMARY KEY ngram SOURCE(CLICKHOUSE(TABLE 'nb_counts'))
LAYOUT(NAIVE_BAYES(class_attribute 'class_id' n 1 mode 'token' alpha 1.0)) LIFETIME(0)"""
CLASSIFY = """
CREATE TABLE nb_out ENGINE = MergeTree ORDER BY doc_id AS
SELECT doc_id, naiveBayesClassifier('nb', text) AS class_id FROM test"""


def clickhouse_nb(client) -> float:
    for name in ("DICTIONARY nb", "TABLE nb_counts", "TABLE nb_out"):
        kind, table = name.split()
        client.command(f"DROP {kind} IF EXISTS {table}")
    start = time.perf_counter()
    client.command(COUNTS)
    client.command(DICTIONARY)
    client.command(CLASSIFY)
    return time.perf_counter() - start


def sqlnb_nb(db: sqlnb.Database) -> float:
    start = time.perf_counter()
    model = sqlnb.train(db, sqlnb.Docs("train"), model="bench")
    model.predict_to(sqlnb.Docs("test"), "sqlnb_out", replace=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("data", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    data = args.data.resolve()
    with tempfile.TemporaryDirectory(prefix="sqlnb-ch-") as folder:
        client = clickhouse_connect.get_client(interface="chdb", path=folder)
        for name in ("train", "test"):
            client.command(
                f"CREATE TABLE {name} ENGINE = MergeTree ORDER BY doc_id AS "
                f"SELECT * FROM file('{data / f'{name}_docs.parquet'}', Parquet)"
            )
        client.command(
            "CREATE TABLE nb_labels ENGINE = MergeTree ORDER BY class_id AS SELECT label, "
            "toUInt32(row_number() OVER (ORDER BY label) - 1) AS class_id "
            "FROM (SELECT DISTINCT label FROM train)"
        )
        db = sqlnb.connect(client)
        times: dict[str, list[float]] = {"ClickHouse NAIVE_BAYES": [], "sqlnb on ClickHouse": []}
        for _ in range(args.repeat):
            times["ClickHouse NAIVE_BAYES"].append(clickhouse_nb(client))
            times["sqlnb on ClickHouse"].append(sqlnb_nb(db))
        accuracy = {
            "ClickHouse NAIVE_BAYES": client.query(
                "SELECT avg(l.label = t.label) FROM nb_out AS p JOIN nb_labels AS l "
                "ON l.class_id = p.class_id JOIN test AS t ON t.doc_id = p.doc_id"
            ).result_rows[0][0],
            "sqlnb on ClickHouse": client.query(
                "SELECT avg(p.label = t.label) FROM sqlnb_out AS p "
                "JOIN test AS t ON t.doc_id = p.doc_id"
            ).result_rows[0][0],
        }
        rows = client.query("SELECT count() FROM train").result_rows[0][0]
        print(f"{data.name}: {rows} training documents, median of {args.repeat}")
        for name, seconds in times.items():
            print(
                f"  {name:24} {statistics.median(seconds):6.2f} s  "
                f"(runs {', '.join(f'{s:.2f}' for s in seconds)})  accuracy {accuracy[name]:.4f}"
            )


if __name__ == "__main__":
    main()
