"""The label modes of the SQL functions follow the database's :class:`Shape`, not the engine
that builds them: the rows form of any model (:func:`sqlnb.functions.rows.scalars`: Spark's
functions, PostgreSQL's fallback) gives a multi-label model's labels as a list wherever the
shape has one, equal to the engine's own functions (DuckDB's list form, PostgreSQL's branch per
signature); it walks a hierarchical model's tree where the engine spells that walk (Spark's:
tests/test_labels.py) and elsewhere, or beside a multi-label model, refuses the model in a line
that names it. The rows form's tree runs here on DuckDB and PostgreSQL, the model and the text
bound as the functions bind them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from engines import open_engine
from sqlglot import exp
from test_functions import function_rows
from test_labels import corpus as tree_corpus
from test_multilabel_functions import corpus as multi_corpus

import sqlnb
from sqlnb import Docs, Labels, training
from sqlnb.functions import rows, wrap
from sqlnb.functions.shape import Shape


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> Iterator[Any]:
    yield from open_engine(request.param)


def database(engine: Any, hierarchy: bool, multi: bool) -> sqlnb.Database:
    """A flat model, and a hierarchical or multi-label one (or both), on ``engine``."""
    import pandas as pd

    columns = ["doc_id", "text", "label"]
    docs, labels = multi_corpus(1, 120, 0)
    test = [*tree_corpus(2, 40), *multi_corpus(2, 40, 1000)[0]]
    engine.load("train_docs", pd.DataFrame(tree_corpus(1, 150), columns=columns))
    engine.load("test_docs", pd.DataFrame(test, columns=columns))
    engine.load("ml_docs", pd.DataFrame(docs, columns=columns))
    engine.load("ml_labels", pd.DataFrame(labels, columns=["doc_id", "label"]))
    db: sqlnb.Database = engine.db
    training.train(db, Docs("train_docs"), model="flat").apply()
    if hierarchy:
        training.train(db, Docs("train_docs"), model="tree", hierarchy=("/", 0.7)).apply()
    if multi:
        sqlnb.train(db, Docs("ml_docs"), Labels("ml_labels"), model="ml", multi_label=True,
                    threshold=0.4)  # fmt: skip
    return db


def rows_form(db: sqlnb.Database, model: str) -> dict[int, tuple[Any, float]]:
    """doc_id -> (label, proba) of the test texts by the rows form of any model, for the
    database's shape, the model a literal and the text each row's."""
    shape = Shape.of(db)
    label, proba = rows.scalars(db, shape)
    if db.dialect.name == "postgres":  # DuckDB's error() as sqlnb_raise() (wrap.postgres)
        schema = exp.to_identifier(db.backend.schema, quoted=True)
        raised = exp.Dot(this=schema, expression=wrap.RAISE)
        label = wrap.raising(label, "TEXT[]" if shape.multi else "TEXT", raised)
        proba = wrap.raising(proba, "DOUBLE PRECISION", raised)
    values = {wrap.MODEL: exp.convert(model), "sqlnb_text": exp.column("text", "t")}
    query = exp.select(
        exp.column("doc_id", "t"),
        wrap.bound(label.copy(), values).as_("label"),
        wrap.bound(proba.copy(), values).as_("proba"),
    ).from_(exp.to_table("test_docs").as_("t"))
    return {int(d): (k, float(p)) for d, k, p in db.fetch(query)}


def functions(engine: Any, model: str) -> dict[int, tuple[Any, float]]:
    """doc_id -> (label, proba) of the test texts by the engine's own functions (DuckDB's
    macros: the list form; PostgreSQL's: a branch per signature)."""
    query = (
        f"SELECT doc_id, sqlnb_classify('{model}', text), sqlnb_proba('{model}', text) "
        "FROM test_docs"
    )
    return {int(d): (k, float(p)) for d, k, p in function_rows(engine, query)}


def same(got: dict[int, tuple[Any, float]], want: dict[int, tuple[Any, float]]) -> None:
    assert got.keys() == want.keys() and len(want) == 80
    for doc_id, (label, proba) in want.items():
        assert got[doc_id][0] == label, doc_id
        assert abs(got[doc_id][1] - proba) <= 1e-12, doc_id


@pytest.mark.parametrize("engine", ["duckdb", pytest.param("postgres", marks=pytest.mark.postgres)],
                         indirect=True)  # fmt: skip
def test_rows_form_lists_a_multi_label_models_labels(engine: Any) -> None:
    """In a database with a multi-label model the rows form's label is a list: the model's
    labels at its threshold, a flat model's label as a list of one, as DuckDB's macros give
    (before, only Spark asked for the list step; PostgreSQL's fallback refused the model)."""
    db = database(engine, hierarchy=False, multi=True)
    for model in ("ml", "flat"):
        want = functions(engine, model)
        same(rows_form(db, model), want)
        assert all(isinstance(label, list) for label, _ in want.values())
    assert len({len(label) for label, _ in functions(engine, "ml").values()}) > 1


@pytest.mark.postgres
@pytest.mark.parametrize("engine", ["postgres"], indirect=True)
def test_rows_form_refuses_a_tree_where_the_engine_does_not_walk_it(engine: Any) -> None:
    """PostgreSQL's rows form of any model (its functions' fallback: each tree is walked in
    its branch) cannot spell the catalog's walk (``Dialect.walks_catalog``: Spark's can,
    tests/test_labels.py): it refuses a hierarchical model in a line that names it, instead
    of giving its leaf; a flat model beside keeps its label, as the functions give it."""
    db = database(engine, hierarchy=True, multi=False)
    with pytest.raises(sqlnb.SqlnbError) as error:
        rows_form(db, "tree")
    assert "model 'tree' is hierarchical: Postgres's SQL functions do not walk" in str(error.value)
    same(rows_form(db, "flat"), functions(engine, "flat"))
    assert any(label is None for label, _ in functions(engine, "tree").values())  # its walk


@pytest.mark.parametrize("engine", ["duckdb"], indirect=True)
def test_rows_form_refuses_a_tree_beside_a_multi_label_model(engine: Any) -> None:
    """A hierarchical model beside a multi-label one: the rows form does not walk it (its
    label would be a list) and says so in a line that names the model and the engine."""
    db = database(engine, hierarchy=True, multi=True)
    with pytest.raises(sqlnb.SqlnbError) as error:
        rows_form(db, "tree")
    assert "model 'tree' is hierarchical: Duckdb's SQL functions do not walk" in str(error.value)
    same(rows_form(db, "ml"), functions(engine, "ml"))


@pytest.mark.parametrize("engine", ["duckdb", "clickhouse"], indirect=True)
def test_list_form_lists_a_walk_beside_a_multi_label_model(engine: Any) -> None:
    """The list form (DuckDB's macros, ClickHouse's lambdas) binds the one multi-label step
    (``sql/multilabel/listed.sql``): beside a multi-label model, a hierarchical model's walk
    is a list of one (none where the walk stops above the tree) with its probability, as
    predict walks it; the multi-label model's labels are those the rows form gives."""
    db = database(engine, hierarchy=True, multi=True)
    walk = sqlnb.load(db, "tree").prediction_query(Docs("test_docs"))
    want = {int(r[0]): ([r[1]] if r[1] is not None else [], float(r[2])) for r in db.fetch(walk)}
    assert any(not labels for labels, _ in want.values())  # a walk that stopped
    got = functions(engine, "tree")
    assert got.keys() == want.keys() and len(want) == 80
    for doc_id, (labels, proba) in want.items():
        assert list(got[doc_id][0]) == labels, doc_id
        assert abs(got[doc_id][1] - proba) <= 1e-12, doc_id
    if engine.name == "duckdb":
        same(rows_form(db, "ml"), functions(engine, "ml"))
