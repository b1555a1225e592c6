"""Issue 38: a training's statements on Spark. A table the training writes has the model's
partition overwritten (INSERT OVERWRITE ... PARTITION) instead of dropped first; retraining
leaves no row of the old model and touches no other model's rows, and keeps the replaced
version (in the overwrite itself, where the table has a row a class or the training read before
it wrote that it learns a word); every table's rows, the kept version's included, equal
DuckDB's after the same commands."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from engines import open_engine
from sqlglot import exp

import sqlnb
from sqlnb import versions

pytestmark = pytest.mark.spark

WRITTEN = (
    "sqlnb_models",
    "sqlnb_classes",
    "sqlnb_prior",
    "sqlnb_word_counts",
    "sqlnb_scoring",
    "sqlnb_base",
    "sqlnb_tokenizers",
)


def _rows(db: sqlnb.Database, table: str) -> list[tuple[object, ...]]:
    """A table's rows, model first (Spark puts a partition column last), without the time and
    version of a training."""
    names = [c for c in db.columns(exp.to_table(table)) if c not in ("trained_at", "version")]
    names = ["model", *sorted(c for c in names if c != "model")]
    found = db.fetch(exp.select(*names).from_(exp.to_table(table)))
    rows = [tuple(round(v, 9) if isinstance(v, float) else v for v in r) for r in found]
    return sorted(rows, key=repr)


def _inputs() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    docs = pd.DataFrame(
        {
            "doc_id": [1, 2, 3, 4, 5],
            "text": ["red apple", "green apple pie", "blue sky", "sky high", "apple sky"],
            "label": ["fruit", "fruit", "sky", "sky", "both"],
        }
    )
    tokens = pd.DataFrame(
        {"doc_id": [1, 1, 2, 3], "word": ["a", "b", "b", "c"], "count": [2.0, 1.0, 3.0, 1.0]}
    )
    labels = pd.DataFrame({"doc_id": [1, 2, 3], "label": ["x", "x", "y"]})
    return docs, tokens, labels


def test_retraining_on_spark_overwrites_the_models_partitions_only():
    engines = {name: open_engine(name) for name in ("spark", "duckdb")}
    opened = {name: next(gen) for name, gen in engines.items()}
    traces: list[str] = []
    try:
        for name, engine in opened.items():
            docs, tokens, labels = _inputs()
            engine.load("docs", docs)
            engine.load("tokens", tokens)
            engine.load("labels", labels)
            sqlnb.train(engine.db, sqlnb.Docs("docs"), model="other")
            sqlnb.train(engine.db, sqlnb.Docs("docs"), model="m")
            if name == "spark":
                engine.db.tracer = traces.append
            # retrained from a tokens table: fewer classes and words, and no tokenizer
            sqlnb.train(engine.db, "tokens", "labels", model="m", alpha=0.5)
            engine.db.tracer = None
        spark, duck = opened["spark"].db, opened["duckdb"].db
        for table in WRITTEN:
            assert _rows(spark, table) == _rows(duck, table), table
        models = {r[0] for r in _rows(spark, "sqlnb_classes")}
        assert {m for m in models if "\x1f" not in m} == {"m", "other"}  # (and m's last version)
        assert [r[2] for r in _rows(spark, "sqlnb_classes") if r[0] == "m"] == ["x", "y"]
        assert [r for r in _rows(spark, "sqlnb_tokenizers") if r[0] == "m"] == []
        text = "\n".join(traces).replace("`", "")
        for table in WRITTEN[:-1]:  # (the tokenizer's row is not written again: dropped)
            # each keeps the replaced rows in its overwrite, both keys' partitions at once
            # (issue 38): the word tables too, the training having read that it learns a word
            assert f"INSERT OVERWRITE TABLE {table} PARTITION(model) (" in text, table
            assert f"INSERT INTO {table} (" not in text, table
            assert f"ALTER TABLE {table} DROP IF EXISTS PARTITION(model = 'm')" not in text, table
        assert "INSERT OVERWRITE TABLE sqlnb_versions PARTITION(model) (" in text
        assert "INSERT INTO sqlnb_versions" not in text  # (moved and recorded at once)
        # the version's key read once to hold no row of the six tables kept in their
        # overwrites (keyrows.held): none of those guards its own (a job each)
        kept_in = [t for t in traces if "PARTITION(model) (" in t.replace("`", "")]
        assert len(kept_in) == 7 and not [t for t in kept_in if "NOT EXISTS" in t]
        assert text.count(" AS held FROM sqlnb_") == 6  # (in one read)
        assert [(v.version, v.current) for v in versions.kept(spark, "m")] == [
            (1, False),
            (2, True),
        ]
        # the tokenizer's partition overwritten with no rows; no partition dropped anywhere
        assert "INSERT OVERWRITE TABLE sqlnb_tokenizers PARTITION(model = 'm') (" in text
        assert re.findall(r"ALTER TABLE (\w+) DROP", text) == []  # sqlnb_scoring's neither
        # a dropped version's partitions emptied by one statement (Spark's multi-insert)
        traces.clear()
        spark.tracer = traces.append
        versions.drop_version(spark, "m", 1)
        spark.tracer = None
        versions.drop_version(duck, "m", 1)
        emptied = [t for t in traces if t.lstrip().startswith("FROM")]
        assert len(emptied) == 1 and emptied[0].count("INSERT OVERWRITE TABLE") >= 7
        for table in (*WRITTEN, "sqlnb_versions"):
            assert [r for r in _rows(spark, table) if r[0] == "m\x1fv1"] == [], table
        for table in WRITTEN:
            assert _rows(spark, table) == _rows(duck, table), table
        assert [(v.version, v.current) for v in versions.kept(spark, "m")] == [(2, True)]
    finally:
        for gen in engines.values():
            for _ in gen:
                pass


def _model_rows(db: sqlnb.Database, model: str) -> dict[str, list[tuple[object, ...]]]:
    """Model ``model``'s rows in every table a training writes (its own partition)."""
    return {t: [r for r in _rows(db, t) if r[0] == model] for t in WRITTEN}


def test_an_interrupted_retraining_on_spark_leaves_the_replaced_version_kept(monkeypatch):
    """Without transactions, a retraining interrupted after some of its overwrites kept the
    replaced rows under the version's key (but before the version row moved) leaves them
    there: the next write keeps them, not the interrupted write's rows now under the name,
    and a rollback to the version gives the first model back, row for row. A retraining
    that learns no word is refused before it writes: every row stays as it was."""
    from sqlnb.engine import Database

    gen = open_engine("spark")
    engine = next(gen)
    try:
        docs, tokens, labels = _inputs()
        engine.load("docs", docs)
        engine.load("tokens", tokens)
        engine.load("labels", labels)
        db = engine.db
        original = Database.execute
        # interrupted before the new version's row (every table written), and before the
        # scoring table's overwrite (the classes', the word counts' and the prior's done)
        done = {
            "a": {"sqlnb_classes", "sqlnb_word_counts", "sqlnb_prior", "sqlnb_scoring",
                  "sqlnb_base", "sqlnb_models"},
            "b": {"sqlnb_classes", "sqlnb_word_counts", "sqlnb_prior"},
        }  # fmt: skip
        for model, stop in (("a", "sqlnb_versions"), ("b", "sqlnb_scoring")):
            sqlnb.train(db, sqlnb.Docs("docs"), model=model)
            first = _model_rows(db, model)

            def interrupting(self: Database, tree: exp.Expr | str, stop: str = stop) -> None:
                if isinstance(tree, exp.Insert) and tree.args.get("overwrite"):
                    table = tree.find(exp.Table)
                    partition = table.args.get("partition") if table is not None else None
                    both = partition is not None and partition.expressions == [exp.column("model")]
                    if table is not None and table.name == stop and both:  # both keys' rows
                        raise KeyboardInterrupt
                original(self, tree)

            monkeypatch.setattr(Database, "execute", interrupting)
            with pytest.raises(KeyboardInterrupt):
                sqlnb.train(db, "tokens", "labels", model=model, alpha=0.5)
            monkeypatch.undo()
            assert _model_rows(db, model) != first  # (interrupted after a table was written)
            traces: list[str] = []
            db.tracer = traces.append
            sqlnb.train(db, "tokens", "labels", model=model, alpha=0.25)
            db.tracer = None
            # the tables the interrupted write kept under the key take those rows (guarded)
            overwrite = re.compile(r"INSERT OVERWRITE TABLE `?(\w+)`? PARTITION\(model\) \(")
            guarded = {x for t in traces if "NOT EXISTS" in t for x in overwrite.findall(t)}
            assert guarded == done[model], model
            kept = [(v.version, v.current) for v in versions.kept(db, model)]
            assert kept == [(1, False), (2, True)], model
            versions.rollback(db, model, 1)
            assert _model_rows(db, model) == first, model
        engine.load("elsewhere", pd.DataFrame({"doc_id": [9], "word": ["z"], "count": [1.0]}))
        before = {t: _rows(db, t) for t in (*WRITTEN, "sqlnb_versions")}
        with pytest.raises(sqlnb.SqlnbError, match="has no word of a document in labels table"):
            sqlnb.train(db, "elsewhere", "labels", model="a")
        assert {t: _rows(db, t) for t in (*WRITTEN, "sqlnb_versions")} == before
    finally:
        for _ in gen:
            pass
