"""Issue 38: the prediction query's shape where the engine distributes a docs table by
document first (Spark: ``Backend.distributes_documents``), built on DuckDB and written for
Spark: every read of the docs table is wrapped in the hint, and nothing else changes (Spark's
own runs: tests/test_spark.py's round trip from docs)."""

from __future__ import annotations

import duckdb
import pytest

import sqlnb
from sqlnb.tokenizer import Docs

TEXTS = [(1, "cheap pills now", "spam"), (2, "lunch at noon", "ham"),
         (3, "cheap lunch pills", "spam"), (4, "noon meeting", "ham")]  # fmt: skip


def test_a_docs_prediction_reads_the_docs_distributed_by_their_id(monkeypatch):
    con = duckdb.connect()
    con.execute("CREATE TABLE docs (id INTEGER, text VARCHAR, label VARCHAR)")
    con.executemany("INSERT INTO docs VALUES (?, ?, ?)", TEXTS)
    db = sqlnb.connect(con)
    model = sqlnb.train(db, Docs("docs", doc="id"), model="m")
    plain = model.prediction_query(Docs("docs", doc="id"))
    monkeypatch.setattr(type(db.backend), "distributes_documents", True)
    spread = model.prediction_query(Docs("docs", doc="id"))
    text = spread.sql("spark")
    reads = text.count("FROM `docs`")
    assert reads == plain.sql("spark").count("FROM `docs`") >= 2  # the tokens and the ids
    wrapped = "(SELECT /*+ REPARTITION(`id`) */ * FROM `docs`)"
    assert text.count(f"FROM {wrapped}") == reads
    assert text.replace(wrapped, "`docs`") == plain.sql("spark")


@pytest.mark.parametrize("attribute", ["distributes_documents", "sorts_one_partition"])
def test_only_spark_reshapes_its_predictions(attribute):
    from sqlnb.engine.backends import Backend
    from sqlnb.engine.spark import SparkBackend

    assert getattr(SparkBackend, attribute) and not getattr(Backend, attribute)
