"""SQLite's plans for predict and evaluate stay linear in the documents (issue 35).

SQLite chose, by the row counts of the model tables in the file, between looking up each
(document, class)'s parts by an automatic index and scanning them all once per document and
class (``SCAN s LEFT-JOIN``: quadratic time, 121.9 s for 4,675 documents at 11 classes). These
tests read the plan (EXPLAIN QUERY PLAN), not a timing: inside every join, a relation other
than the first is looked up (SEARCH) or is one of the model's per-class rows, never a scan of
something that grows with the documents.
"""

from __future__ import annotations

import random
import sqlite3

import pytest

import sqlnb
from sqlnb import pipeline
from sqlnb.inputs import Docs, Tokens

pytestmark = pytest.mark.sqlite

# Relations that hold a row per class or per model, whatever the documents: the catalog guard
# (g over m), the base (b) and the classes (c, sqlnb_classes). A full scan of them inside a join
# costs the documents times the classes: linear.
PER_CLASS = {"g", "m", "b", "c", "sqlnb_classes"}


def corpus(k: int, n: int, seed: int) -> list[tuple[int, str, str]]:
    """``n`` short texts of ``k`` classes (shared words and each class's own)."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        c = i % k
        words = [
            f"w{rng.randrange(2000)}"
            if rng.random() < 0.5
            else f"w{2000 + c * 300 + rng.randrange(300)}"
            for _ in range(rng.randint(5, 60))
        ]
        rows.append((i, " ".join(words), f"c{c:02d}"))
    return rows


def inner_scans(con: sqlite3.Connection, sql: str) -> list[str]:
    """The full scans of EXPLAIN QUERY PLAN that run inside a join, once per row of the
    relations before them (SQLite lists a join's loops as siblings, outermost first)."""
    plan = con.execute("EXPLAIN QUERY PLAN " + sql).fetchall()
    loops: dict[int, list[str]] = {}
    for _, parent, _, detail in plan:
        if detail.startswith(("SCAN ", "SEARCH ")):
            loops.setdefault(parent, []).append(detail)
    return [d for siblings in loops.values() for d in siblings[1:] if d.startswith("SCAN ")]


def big(scans: list[str]) -> list[str]:
    return [s for s in scans if s.split()[1] not in PER_CLASS]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """One file per number of classes, with one model (as the user had), and one with three
    models of 6, 11 and 42 classes."""
    folder = tmp_path_factory.mktemp("plans")
    made = {}
    for name, ks in [("k6", [6]), ("k11", [11]), ("k42", [42]), ("three", [6, 11, 42])]:
        path = folder / f"{name}.sqlite"
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE test (doc_id INTEGER, text TEXT, label TEXT)")
        con.executemany("INSERT INTO test VALUES (?, ?, ?)", corpus(ks[-1], 300, 2))
        con.execute("CREATE TABLE test_tokens AS SELECT doc_id, 'w1' AS word, 1 AS count FROM test")
        for k in ks:
            con.execute(f"CREATE TABLE docs{k} (doc_id INTEGER, text TEXT, label TEXT)")
            con.executemany(f"INSERT INTO docs{k} VALUES (?, ?, ?)", corpus(k, 3000, 1))
        con.commit()
        for k in ks:
            sqlnb.train(con, Docs(f"docs{k}"), model=f"m{k}")
        made[name] = (con, [f"m{k}" for k in ks])
    yield made
    for con, _ in made.values():
        con.close()


@pytest.mark.parametrize("name", ["k6", "k11", "k42", "three"])
@pytest.mark.parametrize("source", ["docs", "tokens"])
def test_predict_and_evaluate_look_parts_up(files, name, source):
    con, models = files[name]
    data = Docs("test") if source == "docs" else Tokens("test_tokens")
    for model in models:
        m = sqlnb.load(con, model)
        predict = m.db.sql(m.prediction_query(data))
        assert inner_scans(m.db.connection, predict), (
            "the plan lists no join: the test reads it wrong"
        )
        assert big(inner_scans(m.db.connection, predict)) == []
        proba = m.db.sql(m.prediction_query(data, proba=True))
        assert big(inner_scans(m.db.connection, proba)) == []
        evaluated = pipeline.evaluation_pipeline(m.db, m, data, "test")
        create, _, _ = pipeline.evaluation(evaluated, model, m.db.dialect.name)
        outcomes = m.db.sql(create.expression)
        assert big(inner_scans(m.db.connection, outcomes)) == []
