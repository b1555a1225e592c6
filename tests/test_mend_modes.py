"""The multi-label mark read in one place (issue 39's review): SQL reads a model's label mode
from ``sql/multilabel/modes.sql`` (model, threshold: NULL for a model of one label per
document), Python from :func:`sqlnb.multilabel.marked`. The query runs on every engine whose
functions read it (DuckDB's macros, PostgreSQL's sqlnb_predict, Spark's functions)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
from engines import open_engine
from test_mend_retype import execute, flat, loaded, multi
from test_multilabel_functions import client_rows

import sqlnb
from sqlnb import multilabel


def modes(engine: Any) -> dict[str, Any]:
    return {str(m): t for m, t in engine.db.fetch(multilabel.modes())}


@pytest.mark.parametrize("name", ["duckdb", "postgres", "sqlite", "clickhouse"])
def test_modes_gives_each_model_its_threshold(name: str) -> None:
    """A multi-label model's stored threshold, NULL for a flat one (PostgreSQL's JSON is read
    from the params text: it refused JSON_EXTRACT_PATH_TEXT on text before; SQLite reads JSON
    true as 1, which the mark compared with 'true' missed). ClickHouse's model row reads the
    threshold from this query (it had its own JSONExtractBool): its dictionary holds each
    model's, -1 for a flat one."""
    for engine in open_engine(name):
        loaded(engine)
        flat(engine, "f")
        multi(engine, "ml")
        sqlnb.train(engine.db, sqlnb.Docs("docs"), sqlnb.Labels("labels"), model="strict",
                    multi_label=True, threshold=0.97)  # fmt: skip
        assert modes(engine) == {"f": None, "ml": 0.5, "strict": 0.97}
        if name == "clickhouse":  # (the functions' dictionary of model rows)
            query = "SELECT model, threshold FROM sqlnb_ch_models ORDER BY model"
            assert client_rows(engine, query) == [("f", -1.0), ("ml", 0.5), ("strict", 0.97)]


@pytest.mark.postgres
def test_postgres_sqlnb_predict_refuses_a_multi_label_model_by_the_one_query() -> None:
    """PostgreSQL's sqlnb_predict (the rows form of any model, no multi-label step) refuses a
    multi-label model in one error naming it, and serves a flat model beside."""
    import psycopg

    for engine in open_engine("postgres"):
        loaded(engine)
        flat(engine, "f")
        multi(engine, "ml")
        tokens = pd.DataFrame({"doc_id": [1], "word": ["refund"], "count": [1]})
        engine.load("toks", tokens)
        with pytest.raises(psycopg.Error) as refused:
            execute(engine, "SELECT * FROM sqlnb_predict('ml', 'toks')")
        assert "model 'ml' is multi-label" in str(refused.value)
        with engine.db.connection.cursor() as cursor:
            cursor.execute("SELECT * FROM sqlnb_predict('f', 'toks')")
            assert len(cursor.fetchall()) == 1


def test_python_reads_the_mark_in_one_place() -> None:
    assert multilabel.marked({"multi_label": True, "threshold": 0.5})
    assert not multilabel.marked({"alpha": 1.0})
