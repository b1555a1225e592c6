"""Hierarchical labels (issue 39): ``train --hierarchy SEP`` is the flat model over the leaf
labels; ``predict`` walks the tree (checked against a reference walk written here in Python
over ``predict --proba``, at two confidences, with unassigned documents); ``evaluate`` adds the
accuracy at each depth (checked against the same walk); the separator and confidence travel
with versions and model files; the refusals are one line and leave the database unchanged."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import duckdb
import pytest
from cli import run
from conftest import copy_database

# A two-level taxonomy (and one top-level leaf): each leaf's words, its parent's shared words.
TREE = {
    "arts/film": "film actor scene",
    "arts/music": "music song guitar",
    "science/biology": "cell gene protein",
    "science/physics": "atom quark energy",
    "sport/football": "goal pitch striker",
    "sport/tennis": "racket serve court",
    "misc": "weather lunch",
}
SHARED = {"arts": "gallery review", "science": "lab theory", "sport": "match team", "misc": ""}
NOISE = ["the", "a", "of", "report", "news", "today"]


def corpus(seed: int, n: int) -> list[tuple[int, str, str]]:
    """(doc_id, text, label): few words per document, many of them another branch's, so that
    some walks stop at the top level and some are unassigned."""
    rng = random.Random(seed)
    every = " ".join([*TREE.values(), *SHARED.values()]).split()
    rows = []
    for doc_id in range(n):
        label = rng.choice(sorted(TREE))
        own = (TREE[label] + " " + SHARED[label.split("/")[0]]).split()
        words = [rng.choice(own) for _ in range(rng.randint(1, 3))]
        words += [rng.choice(every) for _ in range(rng.randint(0, 3))]
        words += [rng.choice(NOISE) for _ in range(2)]
        rng.shuffle(words)
        rows.append((doc_id, " ".join(words), label))
    return rows


def make(path: Path) -> None:
    with duckdb.connect(str(path)) as con:
        for name, seed, n in (("train_docs", 1, 300), ("test_docs", 2, 200)):
            con.execute(f"CREATE TABLE {name} (doc_id INTEGER, text VARCHAR, label VARCHAR)")
            con.executemany(f"INSERT INTO {name} VALUES (?, ?, ?)", corpus(seed, n))


def docs(table: str) -> tuple[str, ...]:
    return ("--docs", table, "--id-column", "doc_id", "--text-column", "text")


def rows(path: Path, query: str) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(path), read_only=True) as con:
        return con.execute(query).fetchall()


def predicted(path: Path, model: str, *extra: str) -> dict[int, tuple[Any, ...]]:
    run("predict", path, "-m", model, *docs("test_docs"), "-o", "out", "--replace", *extra, ok=True)
    return {r[0]: r[1:] for r in rows(path, "SELECT doc_id, label, proba, depth FROM out")}


def same(a: dict[int, tuple[Any, ...]], b: dict[int, tuple[Any, ...]]) -> bool:
    """The same labels and depths, probabilities within 1e-12 (a node's sum is added up in
    the engine's order)."""
    return a.keys() == b.keys() and all(
        a[k][0::2] == b[k][0::2] and abs(a[k][1] - b[k][1]) <= 1e-12 for k in a
    )


def posteriors(path: Path, model: str) -> dict[int, dict[str, float]]:
    run("predict", path, "-m", model, *docs("test_docs"), "-o", "leaves", "--replace", "--proba",
        ok=True)  # fmt: skip
    found: dict[int, dict[str, float]] = defaultdict(dict)
    for doc_id, label, proba in rows(path, "SELECT doc_id, label, proba FROM leaves"):
        found[doc_id][label] = proba
    return found


def reference_walk(leaves: dict[str, float], sep: str, c: float) -> tuple[Any, float, int]:
    """The issue's rule, written out: a node's probability is the sum of its leaves'; from the
    root take the most probable child (ties: the first path in sort order), stop before the
    first child below c; NULL, the best top node's probability and depth 0 if even it is."""
    node_proba: dict[tuple[str, ...], float] = defaultdict(float)
    first: dict[tuple[str, ...], str] = {}
    for label in sorted(leaves):
        parts = tuple(label.split(sep))
        for d in range(1, len(parts) + 1):
            node_proba[parts[:d]] += leaves[label]
            first.setdefault(parts[:d], label)
    path: tuple[str, ...] = ()
    taken: tuple[tuple[str, ...], float] | None = None
    while True:
        children = [n for n in node_proba if len(n) == len(path) + 1 and n[: len(path)] == path]
        if not children:
            break
        best = min(children, key=lambda n: (-node_proba[n], first[n]))
        if node_proba[best] < c:
            if taken is None:
                return None, node_proba[best], 0
            break
        path, taken = best, (best, node_proba[best])
    assert taken is not None
    return sep.join(taken[0]), taken[1], len(taken[0])


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("labels") / "tree.duckdb"
    make(path)
    run("train", path, *docs("train_docs"), "--label-column", "label", "-m", "flat", ok=True)
    run("train", path, *docs("train_docs"), "--label-column", "label", "-m", "tree",
        "--hierarchy", "/", ok=True)  # fmt: skip
    return path


def test_the_model_is_the_flat_model(trained: Path) -> None:
    flat, tree = posteriors(trained, "flat"), posteriors(trained, "tree")
    assert flat.keys() == tree.keys() and len(flat) == 200
    for doc_id, leaves in flat.items():  # the same query, summed in the engine's order
        assert leaves.keys() == tree[doc_id].keys() == TREE.keys()
        assert all(abs(p - tree[doc_id][k]) <= 1e-12 for k, p in leaves.items())


@pytest.mark.parametrize("confidence", [None, "0.4", "0.9"])
def test_predict_walks_the_tree_as_the_reference(trained: Path, confidence: str | None) -> None:
    extra = () if confidence is None else ("--confidence", confidence)
    got = predicted(trained, "tree", *extra)
    c = 0.7 if confidence is None else float(confidence)
    leaves = posteriors(trained, "tree")
    assert set(got) == set(leaves)
    depths = defaultdict(int)
    for doc_id, (label, proba, depth) in got.items():
        want = reference_walk(leaves[doc_id], "/", c)
        assert (label, depth) == (want[0], want[2]), doc_id
        assert proba == pytest.approx(want[1], abs=1e-12)
        depths[depth] += 1
    assert all(depths[d] > 0 for d in (0, 1, 2)), depths  # every case is exercised


def test_evaluate_adds_the_accuracy_at_each_depth(trained: Path) -> None:
    out = run("evaluate", trained, "-m", "tree", *docs("test_docs"), "--label-column", "label",
              "--json", ok=True).stdout  # fmt: skip
    found = json.loads(out)["depth_accuracy"]
    leaves = posteriors(trained, "tree")
    truth = dict((r[0], r[1]) for r in rows(trained, "SELECT doc_id, label FROM test_docs"))
    hits: dict[int, list[bool]] = defaultdict(list)
    for doc_id, label in truth.items():
        walked = reference_walk(leaves[doc_id], "/", 0.7)[0]
        parts, got = label.split("/"), (walked or "").split("/") if walked else []
        for d in range(1, len(parts) + 1):
            hits[d].append(got[:d] == parts[:d])
    assert [r["depth"] for r in found] == [1, 2]
    for r in found:
        assert r["n_docs"] == len(hits[r["depth"]])
        assert r["accuracy"] == pytest.approx(sum(hits[r["depth"]]) / len(hits[r["depth"]]))


def test_the_settings_travel_with_versions_and_model_files(trained: Path, tmp_path: Path) -> None:
    before = predicted(trained, "tree")
    file = tmp_path / "tree.sqlnb"
    run("export", trained, "-m", "tree", "-o", file, ok=True)
    run("import", trained, file, "-m", "copied", ok=True)
    assert same(predicted(trained, "copied"), before)
    run("train", trained, *docs("train_docs"), "--label-column", "label", "-m", "tree",
        "--hierarchy", "/", "--confidence", "0.9", ok=True)  # fmt: skip
    assert same(predicted(trained, "tree"), predicted(trained, "tree", "--confidence", "0.9"))
    assert not same(predicted(trained, "tree"), before)
    run("rollback", trained, "-m", "tree", ok=True)
    assert same(predicted(trained, "tree"), before)


def test_refusals_are_one_line_and_change_nothing(trained: Path) -> None:
    snapshot = rows(trained, "SELECT * FROM sqlnb_models ORDER BY model")
    cases = [
        (("predict", trained, "-m", "flat", *docs("test_docs"), "--confidence", "0.5"),
         "model 'flat' has flat labels: --confidence is for a model trained with --hierarchy"),
        (("predict", trained, "-m", "tree", *docs("test_docs"), "--confidence", "1.5"),
         "--confidence must be a number between 0 and 1, not 1.5"),
        (("predict", trained, "-m", "tree", *docs("test_docs"), "--proba", "--confidence", "0.5"),
         "--confidence walks the labels' tree: not with --proba or --costs"),
        (("train", trained, *docs("train_docs"), "--label-column", "label", "-m", "tree",
          "--confidence", "0.5"), "--confidence goes with --hierarchy"),
        (("train", trained, *docs("train_docs"), "--label-column", "doc_id", "-m", "tree",
          "--hierarchy", "/"), "--hierarchy needs text labels (paths), not INTEGER labels"),
    ]  # fmt: skip
    for args, message in cases:
        code, _, err = run(*args)
        assert code == 1 and message in err and len(err.strip().splitlines()) == 1, err
    assert rows(trained, "SELECT * FROM sqlnb_models ORDER BY model") == snapshot


def test_duckdb_sqlnb_classify_is_predict(trained: Path) -> None:
    """DuckDB's sqlnb_classify and sqlnb_proba give predict's label and probability at the
    model's stored confidence, for a hierarchical model and a flat one in the same database."""
    for model in ("tree", "flat"):
        if model == "tree":
            want = predicted(trained, "tree")
        else:
            run("predict", trained, "-m", "flat", *docs("test_docs"), "-o", "out", "--replace",
                ok=True)  # fmt: skip
            want = {r[0]: (r[1], r[2], None) for r in rows(trained, "SELECT * FROM out")}
        with duckdb.connect(str(trained)) as con:
            got = con.execute(
                "SELECT doc_id, sqlnb_classify(?, text), sqlnb_proba(?, text) FROM test_docs",
                [model, model],
            ).fetchall()
        assert len(got) == len(want) == 200
        for doc_id, label, proba in got:
            assert label == want[doc_id][0], (model, doc_id)
            assert abs(proba - want[doc_id][1]) <= 1e-12, (model, doc_id)
    assert sum(1 for r in want.values() if r[0] is None) == 0  # flat: a label for every one


def test_sqlite_walks_as_duckdb(trained: Path, tmp_path: Path) -> None:
    """SQLite (the tree's paths as UNION ALLs of literal rows, no VALUES with named columns)
    predicts DuckDB's walk, and its registered sqlnb_classify and sqlnb_proba equal it."""
    import sqlite3

    import sqlnb

    want = predicted(trained, "tree")
    path = tmp_path / "tree.db"
    with sqlite3.connect(path) as con:
        for name, seed, n in (("train_docs", 1, 300), ("test_docs", 2, 200)):
            con.execute(f"CREATE TABLE {name} (doc_id INTEGER, text TEXT, label TEXT)")
            con.executemany(f"INSERT INTO {name} VALUES (?, ?, ?)", corpus(seed, n))
    db = f"sqlite:///{path}"
    run("train", db, *docs("train_docs"), "--label-column", "label", "-m", "tree",
        "--hierarchy", "/", ok=True)  # fmt: skip
    run("predict", db, "-m", "tree", *docs("test_docs"), "-o", "out", ok=True)
    con = sqlite3.connect(path)
    try:
        got = {r[0]: r[1:] for r in con.execute("SELECT doc_id, label, proba, depth FROM out")}
        assert same(got, want)
        sqlnb.register_sqlite(con)
        query = (
            "SELECT doc_id, sqlnb_classify('tree', text), sqlnb_proba('tree', text) FROM test_docs"
        )
        for doc_id, label, proba in con.execute(query).fetchall():
            assert label == want[doc_id][0] and abs(proba - want[doc_id][1]) <= 1e-12, doc_id
    finally:
        con.close()


@pytest.fixture(scope="module")
def uncalibrated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The hierarchical model alone in its file, trained once for the module (issue 36), and
    its walk before any calibration: each calibration below calibrates a copy of the file."""
    path = tmp_path_factory.mktemp("labels") / "uncalibrated.duckdb"
    make(path)
    run("train", path, *docs("train_docs"), "--label-column", "label", "-m", "tree",
        "--hierarchy", "/", ok=True)  # fmt: skip
    return path, predicted(path, "tree")


@pytest.mark.parametrize("method", ["isotonic", "sigmoid", "temperature"])
def test_duckdb_functions_walk_a_calibrated_tree(
    uncalibrated: tuple[Path, dict], tmp_path: Path, method: str
) -> None:
    """A calibrated hierarchical model: predict walks the calibrated posterior, and so do
    DuckDB's sqlnb_classify and sqlnb_proba (not the posterior before the calibration)."""
    path = copy_database(uncalibrated[0], tmp_path / "c.duckdb")
    raw = uncalibrated[1]
    run("calibrate", path, "-m", "tree", *docs("test_docs"), "--label-column", "label",
        "--method", method, ok=True)  # fmt: skip
    want = predicted(path, "tree")
    assert max(abs(want[k][1] - raw[k][1]) for k in raw) > 1e-3  # the calibration moved them
    got = rows(path, "SELECT doc_id, sqlnb_classify('tree', text), sqlnb_proba('tree', text) "
                     "FROM test_docs")  # fmt: skip
    assert len(got) == 200
    for doc_id, label, proba in got:
        assert label == want[doc_id][0] and abs(proba - want[doc_id][1]) <= 1e-12, doc_id


def test_every_engine_walks_as_duckdb(engine: Any, reference: Any) -> None:
    """PostgreSQL, Spark and ClickHouse (and SQLite) train the same hierarchical model as DuckDB
    and walk it as DuckDB does, at the stored confidence and at others (documents left
    unassigned among them), and their sqlnb_classify and sqlnb_proba give that walk at the
    stored confidence, for two models of one signature that store 0.7 and 0.95 (PostgreSQL's
    branch per signature gave both the first one's walk; Spark's gave the leaf: its rows form
    of any model now walks the tree read from the catalog); a flat model beside keeps its
    label."""
    import pandas as pd
    from test_functions import function_rows

    import sqlnb
    from sqlnb import training

    walks: dict[str, dict[float | None, dict[int, tuple[Any, ...]]]] = {}
    functions: dict[str, dict[str, dict[int, tuple[Any, ...]]]] = {}
    confidences = (None, 0.5, 0.95)
    for e in (engine, reference):
        for name, seed, n in (("train_docs", 1, 300), ("test_docs", 2, 200)):
            e.load(name, pd.DataFrame(corpus(seed, n), columns=["doc_id", "text", "label"]))
        for name, stored in (("tree", 0.7), ("strict", 0.95)):
            hierarchy = ("/", stored)
            training.train(e.db, sqlnb.Docs("train_docs"), model=name, hierarchy=hierarchy).apply()
        training.train(e.db, sqlnb.Docs("train_docs"), model="flat").apply()
        flat = sqlnb.load(e.db, "flat").prediction_query(sqlnb.Docs("test_docs"))
        walks[f"{e.name} flat"] = {None: {int(r[0]): tuple(r[1:]) for r in e.db.fetch(flat)}}
        model = sqlnb.load(e.db, "tree")
        walks[e.name] = {}
        for c in (None, 0.5) if e.name == "spark" else confidences:  # (Spark: slow)
            query = model.prediction_query(sqlnb.Docs("test_docs"), confidence=c)
            walks[e.name][c] = {int(r[0]): tuple(r[1:]) for r in e.db.fetch(query)}
        functions[e.name] = {}
        for name in ("tree", "strict", "flat"):
            sql = f"SELECT doc_id, sqlnb_classify('{name}', text), sqlnb_proba('{name}', text) "
            sql += "FROM test_docs"
            functions[e.name][name] = {int(r[0]): tuple(r[1:]) for r in function_rows(e, sql)}
    want = walks["duckdb"]
    for c in (None, 0.95):
        assert sum(r[0] is None for r in want[c].values()) > 0, c  # the unassigned case
    assert len({r[2] for r in want[None].values()}) > 1  # walks of several depths
    for c in walks[engine.name]:
        assert same(walks[engine.name][c], want[c]), c
    flat = walks[f"{engine.name} flat"]  # a flat model beside: its own label (Spark: one level)
    for name, wanted in (("tree", want[None]), ("strict", want[0.95]), ("flat", flat[None])):
        got = functions[engine.name][name]
        assert got.keys() == wanted.keys(), name
        for doc_id, (label, proba) in got.items():
            assert label == wanted[doc_id][0], (name, doc_id)
            assert abs(proba - wanted[doc_id][1]) <= 1e-12, (name, doc_id)
