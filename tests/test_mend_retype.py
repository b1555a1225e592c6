"""Retraining a model with another label type (issue 39's review): a flat model retrained as
multi-label (or the reverse) changes what sqlnb_classify returns. A user's view on the
function must keep working, or the retraining is refused in one line naming the view, with
the database as it was. (A model retrained keeps its earlier versions: the type follows every
model and version of the database, so a multi-label model retrained flat stays a list until
its multi-label versions are dropped.)"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
from engines import open_engine
from test_multilabel_functions import client_rows, corpus

import sqlnb
from sqlnb import Docs, Labels
from sqlnb.errors import SqlnbError


def loaded(engine: Any) -> None:
    docs, labels = corpus(1, 60, 0)
    engine.load("docs", pd.DataFrame(docs, columns=["doc_id", "text", "first"]))
    engine.load("labels", pd.DataFrame(labels, columns=["doc_id", "label"]))


def flat(engine: Any, model: str = "m") -> None:
    sqlnb.train(engine.db, Docs("docs"), Labels("docs", label="first"), model=model)


def multi(engine: Any, model: str = "m") -> None:
    sqlnb.train(engine.db, Docs("docs"), Labels("labels"), model=model, multi_label=True)


def models(engine: Any) -> list[tuple[Any, ...]]:
    return client_rows(engine, "SELECT model, params, trained_at FROM sqlnb_models ORDER BY model")


VIEW = "CREATE VIEW guessed AS SELECT doc_id, sqlnb_classify('m', text) AS g FROM docs"


@pytest.mark.postgres
def test_postgres_retype_under_a_view_is_refused_in_one_line() -> None:
    """flat -> multi-label: sqlnb_classify would become TEXT[]; refused, nothing written;
    without the view the retraining goes through."""
    for engine in open_engine("postgres"):
        loaded(engine)
        flat(engine)
        execute(engine, VIEW)
        before = models(engine)
        viewed = client_rows(engine, "SELECT * FROM guessed ORDER BY doc_id")
        with pytest.raises(SqlnbError) as refused:
            multi(engine)
        message = str(refused.value)
        assert "\n" not in message and "view " in message and "guessed" in message, message
        assert "sqlnb_classify" in message and "text[]" in message, message
        assert models(engine) == before
        assert client_rows(engine, "SELECT * FROM guessed ORDER BY doc_id") == viewed
        execute(engine, "DROP VIEW guessed")
        multi(engine)
        assert models(engine) != before
        assert isinstance(client_rows(engine, "SELECT sqlnb_classify('m', 'refund')")[0][0], list)


@pytest.mark.postgres
def test_postgres_dropping_the_last_multi_label_model_under_a_view_is_refused() -> None:
    """multi-label -> flat (the last multi-label model dropped): sqlnb_classify would become
    TEXT again; refused while a view uses the TEXT[] one, with the model still there."""
    for engine in open_engine("postgres"):
        loaded(engine)
        flat(engine)
        multi(engine, "other")
        execute(engine, VIEW)  # a list of one label
        before = models(engine)
        viewed = client_rows(engine, "SELECT * FROM guessed ORDER BY doc_id")
        assert isinstance(viewed[0][1], list)
        with pytest.raises(SqlnbError) as refused:
            sqlnb.drop(engine.db, "other")
        message = str(refused.value)
        assert "\n" not in message and "view " in message and "guessed" in message
        assert "text[]" in message
        assert models(engine) == before
        assert client_rows(engine, "SELECT * FROM guessed ORDER BY doc_id") == viewed
        execute(engine, "DROP VIEW guessed")
        sqlnb.drop(engine.db, "other")
        assert isinstance(client_rows(engine, "SELECT sqlnb_classify('m', 'refund')")[0][0], str)


def execute(engine: Any, statement: str) -> None:
    with engine.db.connection.cursor() as cursor:
        cursor.execute(statement)


@pytest.mark.postgres
def test_postgres_a_second_model_of_the_other_type_is_refused_too() -> None:
    for engine in open_engine("postgres"):
        loaded(engine)
        flat(engine)
        execute(engine, VIEW)
        before = models(engine)
        with pytest.raises(SqlnbError) as refused:
            multi(engine, "other")
        assert "guessed" in str(refused.value) and "\n" not in str(refused.value)
        assert models(engine) == before
        flat(engine, "another")  # the same type: the view is left alone, and still works
        assert len(client_rows(engine, "SELECT * FROM guessed")) == 60


def test_duckdb_a_view_on_sqlnb_classify_follows_a_retype() -> None:
    """DuckDB's macros are expanded when the view is queried: after a retype the view gives
    the new type (a list), no error."""
    for engine in open_engine("duckdb"):
        loaded(engine)
        flat(engine)
        engine.db.connection.execute(VIEW)
        assert isinstance(client_rows(engine, "SELECT g FROM guessed")[0][0], str)
        multi(engine, "other")
        assert isinstance(client_rows(engine, "SELECT g FROM guessed")[0][0], list)
        sqlnb.drop(engine.db, "other")
        assert isinstance(client_rows(engine, "SELECT g FROM guessed")[0][0], str)
