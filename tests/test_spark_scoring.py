"""Spark's prediction and deletes (issue 38): predict's labels and evaluate's outcomes in one
aggregation, no window function, equal to the posterior's windows on every engine with lists;
and every table of
sqlnb's, sqlnb_scoring included, loses a model's rows by an empty INSERT OVERWRITE of its
partition, never by ALTER TABLE ... DROP PARTITION."""

from __future__ import annotations

import math

import pytest
from engines import open_engine
from sqlglot import exp

import sqlnb
from sqlnb import catalog, pipeline, templates
from sqlnb.engine import dialects
from sqlnb.kinds import KINDS
from sqlnb.normalise import decided_outcomes

# (doc_id, class_id, jll): ties (doc 1: classes 1 and 2; doc 5: all three), a NULL jll
# (-infinity) among others (doc 3, the tie after it), every jll NULL (doc 2: the first class,
# its posterior undefined), a gap whose exp underflows (doc 4: -75,000), jll 0 (doc 6).
JLL = [
    (1, 0, -3.0), (1, 1, -1.0), (1, 2, -1.0),
    (2, 0, None), (2, 1, None), (2, 2, None),
    (3, 0, None), (3, 1, -5.5), (3, 2, -5.5),
    (4, 0, -75000.0), (4, 1, -2.0), (4, 2, -74999.0),
    (5, 0, -7.25), (5, 1, -7.25), (5, 2, -7.25),
    (6, 0, 0.0), (6, 1, -0.5), (6, 2, -700.5),
]  # fmt: skip


def _jll() -> exp.Select:
    rows = [
        exp.select(
            exp.convert(d).as_("doc_id"),
            exp.convert(c).as_("class_id"),
            (exp.null() if j is None else exp.convert(j)).as_("jll"),
        )
        for d, c, j in JLL
    ]
    union: exp.Query = rows[0]
    for row in rows[1:]:
        union = exp.union(union, row, distinct=False)
    doubled = exp.cast(exp.column("jll"), exp.DataType.build("DOUBLE"))
    return exp.select("doc_id", "class_id", doubled.as_("jll")).from_(union.subquery("u"))


def _both(db: sqlnb.Database, name: str) -> tuple[list[tuple], list[tuple]]:
    """(the windows' predicted rows, the one aggregation's) of JLL on the engine ``name``."""
    picked = exp.select("doc_id", "class_id", "proba").from_("p").order_by("doc_id")
    windows = picked.copy().where(exp.column("rn").eq(1))
    windows = windows.with_(pipeline.JLL, as_=_jll()).with_("p", as_=pipeline.posterior())
    one = picked.with_(pipeline.JLL, as_=_jll()).with_("p", as_=pipeline.decided(name))
    return [tuple(r) for r in db.fetch(windows)], [tuple(r) for r in db.fetch(one)]


# each document's true label: class 1, 0, one the model does not know, 2, 2, 0
TRUTH = [(1, "y"), (2, "x"), (3, "unknown"), (4, "z"), (5, "z"), (6, "x")]


def _outcomes(db: sqlnb.Database, name: str, model: str) -> tuple[list[tuple], list[tuple]]:
    """(evaluate's outcomes from the posterior's windows, from the one aggregation) of JLL and
    TRUTH on the engine ``name``, whose model ``model`` has the classes x, y, z."""
    rows = [exp.select(exp.convert(d).as_("doc_id"), exp.convert(y).as_("label")) for d, y in TRUTH]
    truth: exp.Query = rows[0]
    for row in rows[1:]:
        truth = exp.union(truth, row, distinct=False)
    windows = templates.select(
        "evaluate/outcomes.sql",
        truth=exp.to_table(pipeline.TRUTH),
        posterior=exp.to_table(pipeline.POSTERIOR),
        model=model,
    )
    one = decided_outcomes(name, pipeline.TRUTH, model)
    found = []
    for final, ctes in (
        (windows, [(pipeline.JLL, _jll()), (pipeline.POSTERIOR, pipeline.posterior())]),
        (one, [(pipeline.JLL, _jll())]),
    ):
        query = exp.select("*").from_(final.subquery("o")).order_by("doc_id")
        for cte, body in [(pipeline.TRUTH, truth.copy()), *ctes]:
            query = query.with_(cte, as_=body)
        found.append([tuple(r) for r in db.fetch(query)])
    return found[0], found[1]


def _assert_same_outcomes(windows: list[tuple], one: list[tuple]) -> None:
    assert [r[:3] for r in one] == [r[:3] for r in windows] == [
        (1, "y", "y"), (2, "x", "x"), (3, "unknown", "y"), (4, "z", "y"), (5, "z", "x"),
        (6, "x", "x"),
    ]  # fmt: skip
    for a, b in zip(one, windows):
        assert all(abs(float(x) - float(y)) <= 1e-15 for x, y in zip(a[3:], b[3:])), (a, b)
    assert one[1][3:] == (0.0, 0.0, 0.0)  # every jll NULL: no posterior
    assert one[0][4] > 0.4 and one[2][3] == 0.0 and one[4][3] > 0.3  # a tie, an unknown label


def _expected() -> list[tuple]:
    """The rule by hand: the largest jll, ties to the first class, exp(jll - logsumexp)."""
    found = []
    for doc in sorted({d for d, _, _ in JLL}):
        scores = [(c, j) for d, c, j in JLL if d == doc]
        known = [(c, j) for c, j in scores if j is not None]
        if not known:
            found.append((doc, 0, None))
            continue
        top = max(j for _, j in known)
        best = min(c for c, j in known if j == top)
        total = sum(math.exp(j - top) for _, j in known if j - top >= -700)
        found.append((doc, best, math.exp(top - (top + math.log(total)))))
    return found


def _assert_equal(found: list[tuple], expected: list[tuple]) -> None:
    assert [r[:2] for r in found] == [r[:2] for r in expected]
    for (_, _, p), (_, _, q) in zip(found, expected):
        assert (p is None) == (q is None)
        if p is not None:
            assert abs(float(p) - q) <= 1e-15, (found, expected)


@pytest.mark.parametrize(
    "name", ["duckdb", pytest.param("clickhouse", marks=pytest.mark.clickhouse)]
)
def test_one_aggregation_equals_the_windows(name):
    gen = open_engine(name)
    engine = next(gen)
    try:
        windows, one = _both(engine.db, name)
        _assert_equal(windows, _expected())
        _assert_equal(one, _expected())
        engine.load("tokens", _tokens())
        engine.load("labels", _labels())
        sqlnb.train(engine.db, "tokens", "labels", model="m")
        _assert_same_outcomes(*_outcomes(engine.db, name, "m"))
    finally:
        for _ in gen:
            pass


@pytest.mark.spark
def test_spark_predicts_without_windows_as_duckdb_does():
    gen = open_engine("spark")
    engine = next(gen)
    try:
        windows, one = _both(engine.db, "spark")
        _assert_equal(windows, _expected())
        _assert_equal(one, _expected())
        engine.load("tokens", _tokens())
        engine.load("labels", _labels())
        model = sqlnb.train(engine.db, "tokens", "labels", model="m")
        query = model.prediction_query("tokens")
        text = dialects.to_sql(query, "spark")
        assert "OVER" not in text.upper() and "COLLECT_LIST" in text.upper()
        found = sorted(tuple(r) for r in engine.db.fetch(query))
        _assert_same_outcomes(*_outcomes(engine.db, "spark", "m"))
        create, _, _ = model.evaluation_statements("tokens", "labels")
        assert "OVER" not in dialects.to_sql(create, "spark").upper()
    finally:
        for _ in gen:
            pass
    gen = open_engine("duckdb")
    duck = next(gen)
    try:
        duck.load("tokens", _tokens())
        duck.load("labels", _labels())
        model = sqlnb.train(duck.db, "tokens", "labels", model="m")
        expected = sorted(tuple(r) for r in duck.db.fetch(model.prediction_query("tokens")))
    finally:
        for _ in gen:
            pass
    assert [r[:2] for r in found] == [r[:2] for r in expected]
    assert all(abs(a[2] - b[2]) <= 1e-12 for a, b in zip(found, expected))


def _tokens():
    import pandas as pd

    rows = [(1, "a", 2), (1, "b", 1), (2, "b", 3), (3, "c", 1), (4, "a", 1), (4, "c", 1)]
    rows += [(5, "zzz", 1)]  # a document without a known word: its prior alone
    return pd.DataFrame(rows, columns=["doc_id", "word", "count"])


def _labels():
    import pandas as pd

    return pd.DataFrame({"doc_id": [1, 2, 3, 4], "label": ["x", "y", "z", "x"]})


def test_every_table_of_every_kind_is_emptied_by_an_empty_overwrite_on_spark():
    seen = set()
    for the_kind in KINDS.values():
        for table in catalog.tables(the_kind):
            if table.view or table.name in seen:
                continue
            seen.add(table.name)
            (statement,) = catalog.deletes("m", [table])
            text = " ".join(dialects.script([statement], "spark").split()).replace("`", "")
            assert "DROP" not in text, text
            into = f"INSERT OVERWRITE TABLE {table.name} PARTITION(model = 'm') ( "
            assert text.startswith(into + ", ".join(table.columns) + " )"), text
            assert text.endswith("WHERE FALSE;"), text
    assert "sqlnb_scoring" in seen
