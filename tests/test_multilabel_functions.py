"""The SQL functions on a multi-label model (issue 39): ``sqlnb_classify('m', text)`` gives the
labels whose binary probability is at or above the model's stored threshold, sorted, as the
engine's list (an empty list when none), ``sqlnb_proba`` the largest binary probability: each
equal to ``predict`` (its rows at the threshold, its ``--proba`` rows). In a database with a
multi-label model, a flat or hierarchical model's label comes as a list of one."""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import duckdb
import pytest
from cli import run

TOPICS = {
    "billing": "invoice refund charge payment",
    "urgent": "asap now critical outage",
    "bug": "crash error fail broken",
    "feature": "add wish idea request",
}
NOISE = ["the", "a", "of", "please", "team"]


def corpus(seed: int, n: int, start: int) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """(docs, labels): one to three labels per document, words of its labels and others."""
    rng = random.Random(seed)
    every = " ".join(TOPICS.values()).split()
    docs, labels = [], []
    for doc_id in range(start, start + n):
        chosen = rng.sample(sorted(TOPICS), rng.choice([1, 2, 2, 3]))
        words = [rng.choice(TOPICS[t].split()) for t in chosen for _ in range(rng.randint(1, 2))]
        words += [rng.choice(every) for _ in range(rng.randint(0, 2))] + [rng.choice(NOISE)]
        docs.append((doc_id, " ".join(words), chosen[0]))
        labels += [(doc_id, t) for t in chosen]
    return docs, labels


def make(path: Path) -> None:
    with duckdb.connect(str(path)) as con:
        for name, seed, n, start in (("train", 1, 120, 0), ("test", 2, 60, 1000)):
            docs, labels = corpus(seed, n, start)
            con.execute(f"CREATE TABLE {name}_docs (doc_id INTEGER, text VARCHAR, first VARCHAR)")
            con.executemany(f"INSERT INTO {name}_docs VALUES (?, ?, ?)", docs)
            con.execute(f"CREATE TABLE {name}_labels (doc_id INTEGER, label VARCHAR)")
            con.executemany(f"INSERT INTO {name}_labels VALUES (?, ?)", labels)


DOCS = ("--docs", "train_docs", "--id-column", "doc_id", "--text-column", "text")
TEST = ("--docs", "test_docs", "--id-column", "doc_id", "--text-column", "text")


def rows(path: Path, query: str) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(path), read_only=True) as con:
        return con.execute(query).fetchall()


def wanted(db: Any, path: Path, model: str) -> dict[int, tuple[list[str], float]]:
    """predict's labels at the stored threshold (sorted) and the largest of --proba's."""
    run("predict", db, "-m", model, *TEST, "-o", "kept", "--replace", ok=True)
    run("predict", db, "-m", model, *TEST, "-o", "every", "--replace", "--proba", ok=True)
    kept: dict[int, list[str]] = defaultdict(list)
    for doc_id, label in rows_of(db, path, "SELECT doc_id, label FROM kept"):
        kept[int(doc_id)].append(str(label))
    top: dict[int, float] = {}
    for doc_id, proba in rows_of(db, path, "SELECT doc_id, proba FROM every"):
        top[int(doc_id)] = max(top.get(int(doc_id), 0.0), float(proba))
    return {d: (sorted(kept.get(d, [])), p) for d, p in top.items()}


def rows_of(db: Any, path: Path, query: str) -> list[tuple[Any, ...]]:
    if str(db).startswith("sqlite"):
        import sqlite3

        with sqlite3.connect(path) as con:
            return con.execute(query).fetchall()
    return rows(path, query)


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mlf") / "ml.duckdb"
    make(path)
    run("train", path, *DOCS, "--labels", "train_labels", "-m", "ml", "--multi-label",
        "--threshold", "0.4", ok=True)  # fmt: skip
    run("train", path, *DOCS, "--labels", "train_labels", "-m", "strict", "--multi-label",
        "--threshold", "0.97", ok=True)  # fmt: skip
    run("train", path, *DOCS, "--label-column", "first", "-m", "flat", ok=True)
    return path


def check(got: list[tuple[Any, ...]], want: dict[int, tuple[list[str], float]]) -> None:
    assert len(got) == len(want) == 60
    for doc_id, labels, proba in got:
        assert list(labels) == want[doc_id][0], doc_id
        assert abs(proba - want[doc_id][1]) <= 1e-12, doc_id


@pytest.mark.parametrize("stored", [False, True])
def test_duckdb_functions_are_predict_at_the_threshold(trained: Path, stored: bool) -> None:
    """The labels at the model's own threshold (0.4 and 0.97: documents with none among
    them), sorted, and the largest binary probability; the same from stored lookup rows."""
    if stored:
        run("functions", trained, ok=True)
    for model in ("ml", "strict"):
        want = wanted(trained, trained, model)
        got = rows(trained, f"SELECT doc_id, sqlnb_classify('{model}', text), "
                            f"sqlnb_proba('{model}', text) FROM test_docs")  # fmt: skip
        check(got, want)
        counts = Counter(len(labels) for labels, _ in want.values())
        assert counts[0] > 0 if model == "strict" else len(counts) > 1, counts
    (kind,) = rows(trained, "SELECT DISTINCT typeof(sqlnb_classify('ml', text)) FROM test_docs")
    assert kind == ("VARCHAR[]",)


def test_duckdb_flat_model_beside_gives_a_list_of_one(trained: Path) -> None:
    """A flat model in the same database: predict's label as a list of one, its probability."""
    run("predict", trained, "-m", "flat", *TEST, "-o", "out", "--replace", ok=True)
    want = {d: ([label], p) for d, label, p in rows(trained, "SELECT * FROM out")}
    got = rows(trained, "SELECT doc_id, sqlnb_classify('flat', text), "
                        "sqlnb_proba('flat', text) FROM test_docs")  # fmt: skip
    check(got, want)


def test_duckdb_refusals_are_unchanged(trained: Path) -> None:
    """An unknown model is still an error that names it."""
    with duckdb.connect(str(trained), read_only=True) as con, pytest.raises(duckdb.Error) as e:
        con.execute("SELECT sqlnb_classify('nope', text) FROM test_docs").fetchall()
    assert "nope" in str(e.value)


# --- every engine that has the functions against DuckDB ------------------------------------


def engine_results(name: str) -> dict[str, Any]:
    """On one engine: the functions of a multi-label model (at 0.4 and 0.97) and of a flat one
    beside it, classify --update's column, and the refusal of a column of another type."""
    import pandas as pd
    from engines import open_engine
    from test_functions import function_rows

    import sqlnb
    from sqlnb import Docs, Labels
    from sqlnb.errors import SqlnbError

    found: dict[str, Any] = {}
    for engine in open_engine(name):
        for table, seed, n, start in (("train", 1, 120, 0), ("test", 2, 60, 1000)):
            docs, labels = corpus(seed, n, start)
            engine.load(f"{table}_docs", pd.DataFrame(docs, columns=["doc_id", "text", "first"]))
            engine.load(f"{table}_labels", pd.DataFrame(labels, columns=["doc_id", "label"]))
        for model, threshold in (("ml", 0.4), ("strict", 0.97)):
            sqlnb.train(engine.db, Docs("train_docs"), Labels("train_labels"), model=model,
                        multi_label=True, threshold=threshold)  # fmt: skip
        sqlnb.train(engine.db, Docs("train_docs"), Labels("train_docs", label="first"),
                    model="flat")  # fmt: skip
        for model in ("ml", "strict", "flat"):
            query = (f"SELECT doc_id, sqlnb_classify('{model}', text), "
                     f"sqlnb_proba('{model}', text) FROM test_docs")  # fmt: skip
            found[model] = listed(
                function_rows(engine, query), name == "sqlite" and model != "flat"
            )
        m = sqlnb.load(engine.db, "ml")
        m.classify("test_docs", "doc_id", Docs("test_docs"), "labels", "top")
        read = client_rows(engine, "SELECT doc_id, labels, top FROM test_docs")
        found["classify"] = listed(read, name == "sqlite")
        texts = "SELECT doc_id, text FROM test_docs ORDER BY doc_id"
        before, refused = client_rows(engine, texts), ""
        try:
            m.classify("test_docs", "doc_id", Docs("test_docs"), "text", None)
        except SqlnbError as error:
            refused = str(error)
        found["refused"] = (refused, before == client_rows(engine, texts))
    return found


def listed(rows: list[tuple[Any, ...]], json_text: bool) -> dict[int, tuple[Any, float]]:
    """doc_id -> (labels as a Python list, proba); SQLite's JSON text read as JSON."""
    return {
        int(d): (json.loads(k) if json_text else k if isinstance(k, str) else list(k), float(p))
        for d, k, p in rows
    }


def client_rows(engine: Any, query: str) -> list[tuple[Any, ...]]:
    """A query's rows from the engine's own connection."""
    if engine.name in ("spark", "clickhouse"):
        from test_functions import rows as read

        return [tuple(r) for r in read(engine, query)]
    if engine.name == "postgres":
        with engine.db.connection.cursor() as cursor:
            cursor.execute(query)
            return [tuple(r) for r in cursor.fetchall()]
    return [tuple(r) for r in engine.db.connection.execute(query).fetchall()]


@pytest.fixture(scope="module")
def duckdb_results() -> dict[str, Any]:
    return engine_results("duckdb")


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(e, marks=getattr(pytest.mark, e))
        for e in ("sqlite", "postgres", "clickhouse", "spark")
    ],
)
def test_every_engine_equals_duckdb(name: str, duckdb_results: dict[str, Any]) -> None:
    """Every engine's functions and classify --update give DuckDB's labels (a sorted array:
    Spark's ARRAY<STRING>, ClickHouse's Array(String); SQLite: the text of a JSON array) and
    probabilities, also for a flat model beside (a list of one, as on DuckDB; SQLite's flat
    label stays text)."""
    want, got = duckdb_results, engine_results(name)
    for key in ("ml", "strict", "classify", "flat"):
        assert got[key].keys() == want[key].keys() and len(want[key]) == 60, key
        for doc_id, (labels, proba) in want[key].items():
            other = got[key][doc_id][0]
            if name == "sqlite" and key == "flat":
                other = [other]
            assert other == labels, (key, doc_id)
            assert abs(got[key][doc_id][1] - proba) <= 1e-12, (key, doc_id)
    assert any(not labels for labels, _ in want["strict"].values())  # the empty list
    for doc_id, (labels, proba) in want["ml"].items():  # classify writes the functions' values
        assert want["classify"][doc_id][0] == labels
        assert abs(want["classify"][doc_id][1] - proba) <= 1e-12
    message, unchanged = got["refused"]
    if name == "sqlite":  # no column types: the JSON text goes into any column
        return
    assert "'text'" in message and "test_docs" in message and unchanged, message
    assert duckdb_results["refused"][1] and "'text'" in duckdb_results["refused"][0]


def test_every_engine_has_a_list_type_for_classify() -> None:
    """classify --update writes a multi-label model's labels as the engine's array of the label
    type (SQLite: the text of a JSON array), built from the dialects alone."""
    from types import SimpleNamespace

    from sqlnb import multilabel
    from sqlnb.engine.dialects import dialect

    types = {
        e: multilabel.list_type(SimpleNamespace(dialect=dialect(e)), "BIGINT").sql(  # type: ignore[arg-type]
            dialect(e).sqlglot
        )
        for e in ("duckdb", "postgres", "sqlite", "spark", "clickhouse")
    }
    assert types == {
        "duckdb": "BIGINT[]",
        "postgres": "BIGINT[]",
        "sqlite": "TEXT",
        "spark": "ARRAY<BIGINT>",
        "clickhouse": "Array(Nullable(Int64))",
    }


def test_duckdb_sqlnb_predict_refuses_a_multi_label_model(trained: Path) -> None:
    """DuckDB's sqlnb_predict (the rows form of any model) has no multi-label step yet: on
    such a model it is an error naming it (it gave one label a document), and a flat model
    beside still gets its rows."""
    with duckdb.connect(str(trained)) as con:
        con.execute("CREATE OR REPLACE TEMP TABLE toks AS SELECT 1 AS doc_id, 'crash' AS word, "
                    "1 AS count")  # fmt: skip
        with pytest.raises(duckdb.Error) as refused:
            con.execute("SELECT * FROM sqlnb_predict('ml', 'toks')").fetchall()
        assert "model 'ml' is multi-label" in str(refused.value)
        assert len(con.execute("SELECT * FROM sqlnb_predict('flat', 'toks')").fetchall()) == 1
