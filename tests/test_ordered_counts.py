"""A DuckDB training stores its word counts in word order (issue 35 point 5): the pivot by
word that derives the weights then reads them in cache order (at 10M token rows, K = 20, a
training 3.35 -> 2.89 CPU-s). Elsewhere an INSERT's ORDER BY is dropped: the rows of a table
have no order, and the sort (on Spark a job) would buy nothing."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd
import sqlglot

import sqlnb
from sqlnb.engine import dialects


def _insert(text: str, name: str) -> str:
    tree = sqlglot.parse_one(text, read="duckdb")
    statement = dialects.statements_for(tree, dialects.dialect(name))[0]  # (then an ANALYZE)
    return statement.sql("duckdb")


def test_an_inserts_order_is_kept_only_where_rows_are_stored_in_it() -> None:
    ordered = "INSERT INTO t SELECT a FROM x ORDER BY a"
    assert _insert(ordered, "duckdb") == ordered
    for name in ("sqlite", "postgres", "spark", "clickhouse"):
        assert _insert(ordered, name) == "INSERT INTO t SELECT a FROM x", name
    wrapped = "INSERT INTO t SELECT o.a FROM (SELECT a FROM x ORDER BY a) AS o"
    assert _insert(wrapped, "sqlite") == "INSERT INTO t SELECT o.a FROM (SELECT a FROM x) AS o"
    limited = "INSERT INTO t SELECT a FROM x ORDER BY a LIMIT 3"  # the order chooses the rows
    assert _insert(limited, "sqlite") == limited


def test_a_keeping_overwrites_order_is_dropped_too() -> None:
    """A Spark write's keeping overwrite (sqlnb.keeping) reads its new rows in one side of a
    UNION ALL: their ORDER BY was a range exchange, a sampling job and a second final
    aggregation of the word counts."""
    union = (
        "INSERT INTO t SELECT k.a FROM (SELECT o.a FROM (SELECT a FROM x ORDER BY a) AS o "
        "UNION ALL SELECT a FROM y UNION ALL SELECT a FROM z ORDER BY a) AS k"
    )
    unordered = (
        "INSERT INTO t SELECT k.a FROM (SELECT o.a FROM (SELECT a FROM x) AS o "
        "UNION ALL SELECT a FROM y UNION ALL SELECT a FROM z) AS k"
    )
    assert _insert(union, "spark") == unordered
    assert _insert(union, "duckdb") == union


def test_a_duckdb_training_stores_its_word_counts_by_word(tmp_path: Path) -> None:
    words = [f"w{(i * 7919) % 997}" for i in range(3000)]
    tokens = pd.DataFrame({"doc_id": [i % 60 for i in range(3000)], "word": words, "count": 1})
    labels = pd.DataFrame({"doc_id": range(60), "label": [f"c{i % 3}" for i in range(60)]})
    path = tmp_path / "m.db"
    with duckdb.connect(str(path)) as con:
        for name, frame in (("tokens", tokens), ("labels", labels)):
            con.register("frame", frame)
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")
            con.unregister("frame")
    sqlnb.train(str(path), "tokens", "labels")
    with duckdb.connect(str(path)) as con:
        stored = [w for (w,) in con.execute("SELECT word FROM sqlnb_word_counts").fetchall()]
        expected = con.execute(
            "SELECT l.label, t.word, SUM(t.count) FROM tokens AS t JOIN labels AS l "
            "USING (doc_id) GROUP BY ALL ORDER BY ALL"
        ).fetchall()
        counts = con.execute(
            "SELECT c.label, w.word, w.count FROM sqlnb_word_counts AS w JOIN sqlnb_classes AS c "
            "USING (model, class_id) ORDER BY ALL"
        ).fetchall()
    assert len(set(stored)) == 997 and stored == sorted(stored)
    assert counts == expected
