"""DuckDB's choice of a hash join's build side by its estimates is off while sqlnb runs its
statements (``sqlnb.engine.backends._BUILD_SIDE``): it estimated a tokenized text at a few rows
and built a prediction's hash table on the documents' tokens instead of the model's rows
(docs/performance.md, "A prediction's join from raw text"). A caller's connection gets its own
setting back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

import sqlnb
from sqlnb.engine import Database
from sqlnb.tokenizer import Docs

DOCS = (
    "CREATE TABLE docs AS SELECT range AS id, 'w' || (range % 7) || ' x' || (range % 3) || "
    "' y' || (range % 11) AS text, 'c' || (range % 3) AS label FROM range(300)"
)


def _disabled(con: duckdb.DuckDBPyConnection) -> str:
    return str(con.execute("SELECT current_setting('disabled_optimizers')").fetchone()[0])


def _joins(node: dict[str, Any]) -> list[dict[str, Any]]:
    """The plan's hash joins (DuckDB's JSON plan: children[1] is the build side)."""
    found = [node] if "HASH_JOIN" in str(node.get("name", "")).upper() else []
    for child in node.get("children", []):
        found += _joins(child)
    return found


def test_a_prediction_from_raw_text_builds_its_hash_table_on_the_model(tmp_path: Path) -> None:
    db = Database.connect(str(tmp_path / "m.duckdb"), create=True)
    db.connection.execute(DOCS)
    model = sqlnb.train(db, Docs("docs", doc="id"), model="m")
    text = db.sql(model.prediction_query(Docs("docs", doc="id")))
    plan = json.loads(db.connection.execute("EXPLAIN (FORMAT json) " + text).fetchall()[0][1])
    joins = [j for n in plan for j in _joins(n) if "word" in json.dumps(j.get("extra_info"))]
    assert len(joins) == 1  # the documents' tokens joined to the model's scoring rows
    probe, build = (json.dumps(child) for child in joins[0]["children"])
    assert "sqlnb_scoring" in build and "sqlnb_scoring" not in probe
    assert _disabled(db.connection) == "build_side_probe_side"
    db.close()


@pytest.mark.parametrize("before", ["", "filter_pushdown"])
def test_a_callers_connection_keeps_its_optimizers(before: str) -> None:
    con = duckdb.connect()
    con.execute(DOCS)
    con.execute(f"SET disabled_optimizers = '{before}'")
    model = sqlnb.train(con, Docs("docs", doc="id"), model="m")
    model.predict_to(Docs("docs", doc="id"), "out")
    assert con.execute("SELECT COUNT(*) FROM out").fetchone()[0] == 300
    assert _disabled(con) == before
    con.close()


def test_the_optimizer_is_added_to_those_already_off() -> None:
    from sqlnb.engine.backends import _disabling

    assert _disabling("b", "") == "SET disabled_optimizers = 'b'"
    assert _disabling("b", "a, c") == "SET disabled_optimizers = 'a,c,b'"
    assert _disabling("b", "a,b") == "SET disabled_optimizers = 'a,b'"
