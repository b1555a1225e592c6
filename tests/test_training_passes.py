"""Issues 35 and 38: a training's statements read their inputs once where one read does. A text
training counts the label and weight its tokens carry from their row (no join back to a
DISTINCT scan of the documents), its classes and prior are written from what the labels'
survey read (the docs table read twice: the survey and the counting), and the scoring table
is derived from one pivot of the counts (sqlnb_word_counts read once, not four times). The
models stay those of the plain statements: equal to training on the same documents as a
tokens table, and on every engine to DuckDB."""

from __future__ import annotations

import re

import duckdb
import pandas as pd
import pytest
from sqlglot import exp
from test_text import corpus

import sqlnb
from sqlnb.engine import Database

KINDS = ("multinomial", "bernoulli", "complement")


def _docs() -> pd.DataFrame:
    """Documents with a sample weight, and one without a word."""
    docs = corpus(5, n=40)
    docs["w"] = [0.5 + (i % 4) for i in range(len(docs))]
    extra = pd.DataFrame(
        [
            (901, "", "pos", 2.0),
        ],
        columns=["doc_id", "text", "label", "w"],
    )
    return pd.concat([docs, extra], ignore_index=True)


def _statements(db: Database) -> list[str]:
    seen: list[str] = []
    db.timer = lambda text, _seconds: seen.append(" ".join(text.split()))
    return seen


def _rows(db: Database, table: str, model: str = "m") -> list[tuple]:
    names = [c for c in db.columns(exp.to_table(table)) if c != "model"]  # (Spark's is last)
    query = exp.select(*names).from_(table).where(exp.column("model").eq(exp.convert(model)))
    found = db.fetch(query)
    return sorted((tuple(round(v, 9) if isinstance(v, float) else v for v in r) for r in found),
                  key=str)  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
def test_text_training_counts_the_labels_its_tokens_carry(kind):
    con = duckdb.connect()
    con.register("frame", _docs())
    con.execute("CREATE TABLE docs AS SELECT * FROM frame")
    db = Database.connect(con)
    seen = _statements(db)
    sqlnb.train(db, sqlnb.Docs("docs", weight="w"), model="m", kind=kind)
    db.timer = None
    (counting,) = [s for s in seen if s.startswith("INSERT INTO sqlnb_word_counts")]
    assert "sqlnb_label" in counting
    assert "doc_id = t.doc_id" not in counting  # no join back to the documents
    assert 'SELECT DISTINCT "doc_id"' not in counting  # nor a scan of their ids
    # the same documents as a tokens table and a labels table: the same model
    tokens = sqlnb.Tokenizer().tokens(sqlnb.Docs("docs"), db)
    con.execute(f"CREATE TABLE tokens AS {db.texts(tokens)[0]}")
    con.execute("CREATE TABLE labels AS SELECT DISTINCT doc_id, label, w FROM docs")
    sqlnb.train(db, "tokens", sqlnb.Labels("labels", weight="w"), model="t", kind=kind)
    for table in ("sqlnb_word_counts", "sqlnb_classes", "sqlnb_scoring", "sqlnb_base"):
        assert _rows(db, table) == _rows(db, table, "t"), table
    assert _rows(db, "sqlnb_word_counts")  # something was counted


def test_class_weights_and_pruning_keep_the_join():
    con = duckdb.connect()
    con.register("frame", _docs())
    con.execute("CREATE TABLE docs AS SELECT * FROM frame")
    db = Database.connect(con)
    seen = _statements(db)
    sqlnb.train(db, sqlnb.Docs("docs"), model="m", class_weight="balanced")
    sqlnb.train(db, sqlnb.Docs("docs"), model="p", pruning=sqlnb.Pruning(min_df=2))
    counting = [s for s in seen if s.startswith("INSERT INTO sqlnb_word_counts")]
    assert len(counting) == 2 and not any("sqlnb_label" in s for s in counting)


@pytest.mark.parametrize("kind", KINDS)
def test_the_scoring_table_reads_the_counts_once(kind):
    con = duckdb.connect()
    con.register("frame", _docs())
    con.execute("CREATE TABLE docs AS SELECT * FROM frame")
    db = Database.connect(con)
    seen = _statements(db)
    sqlnb.train(db, sqlnb.Docs("docs"), model="m", kind=kind)
    (deriving,) = [s for s in seen if s.startswith('INSERT INTO "sqlnb_scoring"')]
    assert deriving.count("sqlnb_word_counts") == 1


@pytest.mark.parametrize("kind", KINDS)
def test_carried_labels_on_every_engine(engine, reference, kind):
    """The statements with carried labels and one pivot give DuckDB's model everywhere."""
    docs = _docs()
    models = []
    for e in (engine, reference):
        e.load("docs", docs)
        sqlnb.train(e.db, sqlnb.Docs("docs", weight="w"), model="m", kind=kind)
        models.append({t: _rows(e.db, t) for t in ("sqlnb_word_counts", "sqlnb_scoring")})
    for table in models[0]:
        ours, theirs = models[0][table], models[1][table]
        assert len(ours) == len(theirs) > 0
        for a, b in zip(ours, theirs):
            assert a[:2] == b[:2]
            for x, y in zip(a[2:], b[2:]):
                assert (x is None) == (y is None) and (x is None or abs(x - y) <= 1e-9)


@pytest.mark.parametrize("kind", KINDS)
def test_a_text_training_reads_its_docs_twice(kind):
    """The labels' survey, then the counting; the classes and the prior from the survey's
    rows (not a scan of the labels, nor sqlnb_classes read back): the same rows as before."""
    con = duckdb.connect()
    con.register("frame", _docs())
    con.execute("CREATE TABLE docs AS SELECT * FROM frame")
    db = Database.connect(con)
    seen = _statements(db)
    sqlnb.train(db, sqlnb.Docs("docs", weight="w"), model="m", kind=kind)
    db.timer = None
    reads = [s.split()[0:3] for s in seen if re.search(r"\bdocs\b", s)]
    assert reads == [["SELECT", "CAST(p.label", "AS"], ["INSERT", "INTO", "sqlnb_word_counts"]]
    (prior,) = [s for s in seen if s.startswith("INSERT INTO sqlnb_prior")]
    assert "sqlnb_classes" not in prior
    # the statements that read the labels again (class weights): the same classes and prior
    sqlnb.train(db, sqlnb.Docs("docs", weight="w"), model="k", kind=kind, class_weight={"pos": 1})
    for table in ("sqlnb_classes", "sqlnb_prior", "sqlnb_word_counts"):
        assert _rows(db, table) == _rows(db, table, "k"), table
    summed = _docs().groupby("label")["w"].sum()  # each class's summed sample weights
    assert [r[1:] for r in _rows(db, "sqlnb_classes")] == list(summed.items())


@pytest.mark.parametrize("labels", ["integer", "boolean"])
def test_surveyed_classes_on_every_engine(engine, reference, labels):
    """Labels that are not text: the counts join the surveyed classes by the labels' text, and
    every engine writes DuckDB's classes, prior and counts."""
    docs = _docs()
    positive = docs["label"] == "pos"
    docs["label"] = positive.astype(int) * 7 - 3 if labels == "integer" else positive
    models = []
    for e in (engine, reference):
        e.load("docs", docs)
        sqlnb.train(e.db, sqlnb.Docs("docs", weight="w"), model="m")
        models.append({t: _rows(e.db, t) for t in ("sqlnb_classes", "sqlnb_prior",
                                                  "sqlnb_word_counts")})  # fmt: skip
    for table in models[0]:
        ours, theirs = models[0][table], models[1][table]
        assert len(ours) == len(theirs) > 0, table
        for a, b in zip(ours, theirs):
            assert a[0] == b[0]  # SQLite has no booleans: its labels' text is 0 and 1
            assert a[1] == b[1] or (labels, a[1], b[1]) in {("boolean", "0", "false"),
                                                            ("boolean", "1", "true")}  # fmt: skip
            for x, y in zip(a[2:], b[2:]):
                assert x == y if isinstance(x, str) else abs(x - y) <= 1e-9
