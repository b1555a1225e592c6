"""Issue 37: the SQL functions subscribe to training's "model written" (sqlnb.events) instead of
sitting under it, each engine's are a class its dialect names, and the calibration is applied
from one relation whose layout change a stored lookup table of an older sqlnb survives."""

from __future__ import annotations

import math
import subprocess
import sys

import duckdb
import pytest
from test_functions import duckdb_docs, predictions

import sqlnb
from sqlnb import events
from sqlnb.engine import DIALECTS
from sqlnb.functions import forms

QUERY = "SELECT doc_id, sqlnb_classify(?, text), sqlnb_proba(?, text) FROM test ORDER BY doc_id"


def _load(con: duckdb.DuckDBPyConnection) -> None:
    for name, frame in (("train", duckdb_docs(90, 1)), ("cal", duckdb_docs(45, 4))):
        con.register("frame", frame)
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")
        con.unregister("frame")
    con.execute("CREATE TABLE test AS SELECT * FROM cal")


def _equal_predict(con: duckdb.DuckDBPyConnection, name: str) -> None:
    want = predictions(sqlnb.load(con, name), "test")
    got = con.execute(QUERY, [name, name]).fetchall()
    assert len(got) == len(want) == 45
    for doc_id, label, proba in got:
        assert label == want[doc_id][0], (name, doc_id)
        assert math.isclose(proba, want[doc_id][1], rel_tol=1e-9, abs_tol=1e-12), (name, doc_id)


def test_training_imports_no_function_and_announces_each_write(tmp_path):
    code = "import sys, sqlnb.training, sqlnb.model; print('sqlnb.functions' in sys.modules)"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert shown.stdout.strip() == "False", shown.stderr
    heard: list[str | None] = []
    events.subscribe(events.MODEL_WRITTEN, lambda db, model: heard.append(model))
    try:
        con = duckdb.connect(str(tmp_path / "db.duckdb"))
        _load(con)
        model = sqlnb.train(con, sqlnb.Docs("train"), model="m")
        model.calibrate(sqlnb.Docs("cal"), method="temperature")
        sqlnb.drop(con, "m")
    finally:
        events._SUBSCRIBED[events.MODEL_WRITTEN].pop()
    assert heard == ["m", "m", "m"]  # train, calibrate, drop
    assert "sqlnb.functions" in sys.modules  # the declared subscriber, imported when announced


def test_every_dialect_with_functions_names_a_form():
    named = {name: d.functions for name, d in DIALECTS.items() if d.functions}
    assert sorted(named) == ["clickhouse", "duckdb", "postgres", "spark"]
    for name, where in named.items():
        form = forms.of(_Fake(name))  # type: ignore[arg-type]
        assert form is not None and where.endswith(":" + type(form).__name__), name
        assert form.lookup_rows == (name == "duckdb") and form.by_model == (name == "postgres")
    assert forms.of(_Fake("sqlite")) is None  # type: ignore[arg-type]  (Python functions)


class _Fake:
    """A database of only a dialect (forms.of reads nothing else)."""

    def __init__(self, name: str) -> None:
        self.dialect = DIALECTS[name]


@pytest.mark.slow  # 8 s in CI (issue 36: out of the quick loop, still in CI)
def test_a_lookup_table_of_other_columns_is_made_again(tmp_path):
    """An older sqlnb's sqlnb_lookup (its calibration's T in a column 'temperature') is
    dropped and made again at the next rebuild, and the macros score as predict does."""
    con = duckdb.connect(str(tmp_path / "db.duckdb"))
    _load(con)
    model = sqlnb.train(con, sqlnb.Docs("train"), model="a")
    model.calibrate(sqlnb.Docs("cal"), method="temperature")
    assert sqlnb.store_functions(con) == ["a"]
    con.execute("ALTER TABLE sqlnb_lookup RENAME COLUMN scale TO temperature")
    con.execute("UPDATE sqlnb_functions SET version = '0.3.2'")
    sqlnb.train(con, sqlnb.Docs("train"), model="b", kind="bernoulli")
    columns = [r[0] for r in con.execute("DESCRIBE sqlnb_lookup").fetchall()]
    assert "scale" in columns and "temperature" not in columns
    assert sqlnb.store_functions(con) == ["a", "b"]
    for name in ("a", "b"):
        _equal_predict(con, name)


def test_the_forms_ask_a_models_terms_and_widen_them_to_any_model():
    """Kind.terms is the one scoring description: predict's parts, PostgreSQL's signature and
    the any-model rows form (Terms.variants, guarded by the model's kind) all come from it."""
    from sqlnb.functions.rows import _any
    from sqlnb.functions.shape import MODEL, SERVED
    from sqlnb.kinds import KINDS, params

    assert [k.name for k in SERVED] == ["multinomial", "bernoulli", "complement"]
    plain = KINDS["multinomial"].terms(params.resolved(KINDS["multinomial"], {}))
    tfidf = KINDS["multinomial"].terms(params.resolved(KINDS["multinomial"], {"idf": "smooth"}))
    zero = KINDS["bernoulli"].terms(params.resolved(KINDS["bernoulli"], {"alpha": 0}))
    assert (plain.signature, tfidf.signature, zero.signature) == (
        (False, False),
        (True, False),
        (False, True),
    )
    assert (
        "sqlnb_transform" in tfidf.parts("m").sql()
        and "sqlnb_transform" not in plain.parts("m").sql()
    )
    # any model: zeros allowed; with and without the transform, each under its condition
    widened = plain.variants(MODEL)
    assert [(t.zeros, t.transformed, w is None) for t, w in widened] == [
        (True, False, False),
        (True, True, False),
    ]
    assert [w is None for _, w in zero.variants(MODEL)] == [True]  # Bernoulli takes none
    assert [w is None for _, w in plain.variants(MODEL, transformed=False)] == [True]
    every = _any(lambda t: t.parts(MODEL), True).sql()
    assert every.count("sqlnb_transform") == 2 and every.count("kind = 'bernoulli'") == 1
    base = _any(lambda t: t.base(MODEL), True).sql()  # the same base for every model: no guard
    assert "sqlnb_doc_count" not in base and base.count("FROM sqlnb_base") == 3


def test_tfidf_is_a_transform_object():
    """TF-IDF is an object of its own (tf, idf, norm), not a flag the text kinds branch on."""
    from sqlnb.kinds import KINDS, params, text
    from sqlnb.kinds.tfidf import Tfidf

    def of(**given: object) -> Tfidf | None:
        return Tfidf.of(params.resolved(KINDS["multinomial"], given))

    assert of() is None
    both = of(idf="smooth", doc_norm="l2")
    assert both == Tfidf(False, "smooth", "l2") and both.idf_in_counts and not both.linear
    alone = of(idf="plain")
    assert alone is not None and not alone.idf_in_counts and alone.linear
    assert "WHEN 'plain' = 'plain'" in alone.frequencies("m").sql()
    assert "WHEN 'none' = 'plain'" in alone.frequencies("m", counted=True).sql()  # not counted
    assert "WHEN 'smooth' = 'smooth'" in both.frequencies("m", counted=True).sql()
    sublinear = of(sublinear_tf=True)
    assert sublinear is not None and not sublinear.linear
    for gone in ("transformed", "idf_in_counts", "frequencies", "transform", "value", "norm"):
        assert not hasattr(text, gone), gone
