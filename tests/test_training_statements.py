"""Issue 40 and 38: a retraining keeps the version it replaces by moving its rows under the
version's key (an UPDATE of the key where the engine has transactions), not by copying them;
the kept version's rows are exactly the replaced model's, and the statements a training runs
are counted (the README's table)."""

from __future__ import annotations

import sqlite3

import duckdb
import pytest

import sqlnb
from sqlnb import versions
from sqlnb.engine import Database

TABLES = ("sqlnb_classes", "sqlnb_word_counts", "sqlnb_scoring", "sqlnb_prior", "sqlnb_models")
TOKENS = [(d, f"w{(d * 7 + j) % 13}", 1 + j % 2) for d in range(30) for j in range(6)]
LABELS = [(d, "ab"[d % 2]) for d in range(30)]


def _database(engine: str, *more: str) -> Database:
    con = duckdb.connect() if engine == "duckdb" else sqlite3.connect(":memory:")
    for statement in more:
        con.execute(statement)
    con.execute("CREATE TABLE tokens (doc_id INTEGER, word TEXT, count INTEGER)")
    con.execute("CREATE TABLE labels (doc_id INTEGER, label TEXT)")
    con.executemany("INSERT INTO tokens VALUES (?, ?, ?)", TOKENS)
    con.executemany("INSERT INTO labels VALUES (?, ?)", LABELS)
    con.commit()
    return Database.connect(con)


def _rows(db: Database, where: str) -> dict[str, list[str]]:
    out = {}
    for table in TABLES:
        found = db.fetch_text(f"SELECT * FROM {table} WHERE model = '{where}'")
        out[table] = sorted(str(r[1:]) for r in found)  # without the model column
    return out


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
def test_a_retraining_moves_the_replaced_rows(engine):
    db = _database(engine)
    sqlnb.train(db, "tokens", "labels", model="m", alpha=0.5)
    before = _rows(db, "m")
    statements: list[str] = []
    db.timer = lambda text, _seconds: statements.append(text.replace("\n", " "))
    sqlnb.train(db, "tokens", "labels", model="m", alpha=2.0)
    db.timer = None
    kept = versions.key("m", 1)
    assert _rows(db, kept) == before  # the replaced version, row for row
    assert _rows(db, "m") != before  # the new one (another alpha)
    copies = [s for s in statements if s.startswith("INSERT") and f"'{kept}'" in s]
    assert copies == []  # moved, not copied
    moves = [s for s in statements if s.startswith("UPDATE") and f"'{kept}'" in s]
    assert {m.split()[1].strip('"') for m in moves} >= set(TABLES)
    assert [v.version for v in versions.kept(db, "m")] == [1, 2]
    # the kept version answers as the first training did
    first = sqlnb.load(db, kept).predict("tokens").fetchall() if engine == "duckdb" else None
    if first is not None:
        again = sqlnb.train(db, "tokens", "labels", model="check", alpha=0.5)
        assert sorted(map(str, first)) == sorted(map(str, again.predict("tokens").fetchall()))


def test_an_append_still_copies_what_it_reads():
    db = _database("duckdb")
    sqlnb.train(db, "tokens", "labels", model="m")
    before = _rows(db, "m")
    sqlnb.append(db, "tokens", "labels", model="m")
    assert _rows(db, versions.key("m", 1)) == before
    counts = db.fetch_text("SELECT SUM(count) FROM sqlnb_word_counts WHERE model = 'm'")
    assert counts[0][0] == 2 * sum(c for _, _, c in TOKENS)


def _counting(db: Database) -> tuple[list[str], list[int]]:
    """The statements ``db`` runs from now on, and how many schema probes it asks."""
    seen: list[str] = []
    probes = [0]
    db.timer = lambda text, _seconds: seen.append(" ".join(text.split()))
    for name in ("relation_type", "relations"):
        asked = getattr(db.backend, name)

        def counted(*args, asked=asked):
            probes[0] += 1
            return asked(*args)

        setattr(db.backend, name, counted)
    return seen, probes


# Statements (the profile's: each a round trip) of a first training and of a retraining of
# this corpus; before issue 38's pass they were 40 and 51 on DuckDB, 36 and 54 on SQLite, with
# 37 and 36 schema probes on DuckDB (16 and 29 on SQLite).
COUNTS = {"duckdb": (33, 22), "sqlite": (34, 28)}


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
def test_a_training_runs_a_handful_of_statements(engine):
    """Issue 38: the tables and SQL functions are made by the first training only, nothing is
    read again after it is written (the version row, the functions' record), and sqlnb's
    tables are listed once a command instead of asked about one by one."""
    db = _database(engine)
    seen, probes = _counting(db)
    sqlnb.train(db, "tokens", "labels", model="m")
    first, asked_first = list(seen), probes[0]
    seen.clear()
    probes[0] = 0
    sqlnb.train(db, "tokens", "labels", model="m", alpha=2.0)
    again, asked_again = list(seen), probes[0]
    db.timer = None
    assert (len(first), len(again)) == COUNTS[engine]
    assert asked_first <= 3 and asked_again <= 2
    (recorded,) = [i for i, s in enumerate(first) if s.startswith("INSERT INTO sqlnb_versions")]
    assert not any("v.version" in s for s in first[recorded + 1 :])  # no re-read
    assert not any(s.startswith("DELETE FROM sqlnb_functions") for s in first)  # made empty
    assert not any(s.startswith("CREATE") for s in again)  # made once
    # the SQL functions' shape read once (DuckDB's), after the stale lookup rows went
    shape = [i for i, s in enumerate(again) if s.startswith("SELECT 'tokenizers' AS tag")]
    stale = [i for i, s in enumerate(again) if s.startswith("DELETE FROM sqlnb_lookup")]
    assert len(shape) == (engine == "duckdb") and stale == [i - 1 for i in shape]
    # the calibration's method is a column of the catalog row's read, not a probe of its own
    assert not any(s.startswith("SELECT MIN(") for s in again)
    (read, *_) = [s for s in again if s.startswith("SELECT m.model AS model")]
    assert "MIN(c.method) AS method FROM sqlnb_calibration AS c WHERE c.model = 'm'" in read
    kept = versions.key("m", 1)
    assert not any(s.startswith("DELETE") and kept in s for s in again)  # the key holds none
    assert [v.version for v in versions.kept(db, "m")] == [1, 2]
    # the statements' model is the one the plain statements give
    other = _database(engine)
    sqlnb.train(other, "tokens", "labels", model="m", alpha=2.0)
    sqlnb.train(other, "tokens", "labels", model="n")
    for ours, theirs in ((_rows(db, "m"), _rows(other, "m")), (_rows(db, kept), _rows(other, "n"))):
        ours.pop("sqlnb_models"), theirs.pop("sqlnb_models")  # (trained_at differs)
        assert ours == theirs


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
def test_a_retraining_reads_the_model_it_replaces_once_inside_its_transaction(engine):
    """Issue 38: where a write moves the replaced rows in its transaction, it reads the
    replaced model's catalog row there only (a read before BEGIN could miss a model another
    writer made meanwhile), with its calibration's method, which the command then reports;
    the written row comes back from its INSERT, not from a read after the write."""
    from sqlnb import training

    db = _database(engine)
    sqlnb.train(db, "tokens", "labels", model="m").calibrate("tokens", "labels", "sigmoid")
    seen, _ = _counting(db)
    plan = training.train(db, "tokens", "labels", model="m", hyper={"alpha": 2.0})
    assert plan.drops_calibration is None  # not read yet
    plan.apply()
    db.timer = None
    reads = [i for i, s in enumerate(seen) if s.startswith("SELECT m.model AS model")]
    begin = next(i for i, s in enumerate(seen) if s.startswith("BEGIN"))
    assert len(reads) == 1 and begin < reads[0]  # the written row: its INSERT's RETURNING
    assert "sqlnb_calibration" in seen[reads[0]]
    assert plan.drops_calibration == "sigmoid"
    kept = db.fetch_text("SELECT DISTINCT method FROM sqlnb_calibration WHERE model = 'm\x1fv2'")
    assert kept == [("sigmoid",)]  # moved with the version (calibrating kept version 1)
    assert db.fetch_text("SELECT COUNT(*) FROM sqlnb_calibration WHERE model = 'm'")[0][0] == 0


EVERY = (*TABLES, "sqlnb_tokenizers", "sqlnb_calibration", "sqlnb_base", "sqlnb_versions")


def _every(db: Database, where: str) -> dict[str, list[str]]:
    """Every row kept under ``where`` in each of :data:`EVERY` (without the model column)."""
    out = {}
    for table in EVERY:
        found = db.fetch_text(f"SELECT * FROM {table} WHERE model = '{where}'")
        out[table] = sorted(str(r[1:]) for r in found)
    return out


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
def test_a_retraining_moves_only_the_tables_with_rows(engine):
    """Issue 38: a retraining moves the replaced model's rows of the tables it has rows in
    (its catalog row says which: a tokenizer, a document transform, a calibration), no others;
    a version whose shape differs keeps every row, and rolling back brings them all back."""
    db = _database(engine)
    db.connection.execute("CREATE TABLE docs AS SELECT doc_id, label, 'w1 w2 w' || "
                          "CAST(doc_id % 5 AS TEXT) AS text FROM labels")  # fmt: skip
    sqlnb.train(db, "tokens", "labels", model="m")
    sqlnb.load(db, "m").calibrate("tokens", "labels", method="sigmoid")
    calibrated = _every(db, "m")
    assert calibrated["sqlnb_calibration"] and not calibrated["sqlnb_tokenizers"]
    seen, _ = _counting(db)
    sqlnb.train(db, sqlnb.Docs("docs"), model="m")  # now with a tokenizer, uncalibrated
    moved = {s.split()[1].strip('"') for s in seen if s.startswith("UPDATE")}
    assert moved == set(EVERY) - {"sqlnb_tokenizers"}  # no doc_freq, doc_count, transform
    kept = versions.key("m", 2)
    assert _every(db, kept) == {**calibrated, "sqlnb_versions": _every(db, kept)["sqlnb_versions"]}
    now = _every(db, "m")
    assert now["sqlnb_tokenizers"] and not now["sqlnb_calibration"]
    seen.clear()
    sqlnb.train(db, "tokens", "labels", model="m")  # without a tokenizer again
    moved = {s.split()[1].strip('"') for s in seen if s.startswith("UPDATE")}
    assert moved == set(EVERY) - {"sqlnb_calibration"}
    assert not _every(db, "m")["sqlnb_tokenizers"]
    assert _every(db, versions.key("m", 3))["sqlnb_tokenizers"] == now["sqlnb_tokenizers"]
    # version 1 dropped beyond --keep 3: only its tables with rows emptied (no calibration)
    assert _dropped(seen, versions.key("m", 1)) == set(EVERY) - {
        "sqlnb_tokenizers", "sqlnb_calibration"}  # fmt: skip
    assert not any(_every(db, versions.key("m", 1)).values())
    db.timer = None
    assert versions.rollback(db, "m", 2) == (4, 2)
    back = _every(db, "m")
    assert {t: back[t] for t in EVERY[:-1]} == {t: calibrated[t] for t in EVERY[:-1]}
    assert [v.version for v in versions.kept(db, "m")] == [2, 3, 4]  # (--keep 3)
    seen, _ = _counting(db)
    sqlnb.train(db, "tokens", "labels", model="m")  # version 2, calibrated, dropped now
    assert _dropped(seen, versions.key("m", 2)) == set(EVERY) - {"sqlnb_tokenizers"}
    assert not any(_every(db, versions.key("m", 2)).values())
    assert [v.version for v in versions.kept(db, "m")] == [3, 4, 5]


def _dropped(seen: list[str], where: str) -> set[str]:
    """The tables ``seen`` (split on spaces, \\x1f among them) deletes ``where``'s rows from."""
    key = "'" + " ".join(where.split()) + "'"
    return {s.split()[2].strip('"') for s in seen if s.startswith("DELETE") and key in s}


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
def test_the_written_model_is_the_catalog_row_its_insert_returned(engine):
    """Issue 38: a training's model (its documents, classes, words, trained_at, which a
    prediction's check compares) is its catalog row as the INSERT wrote it, read by nobody
    after the write, and equal to the row a load reads."""
    db = _database(engine)
    seen, _ = _counting(db)
    trained = sqlnb.train(db, "tokens", "labels", model="m")
    (record,) = [s for s in seen if s.startswith("INSERT INTO sqlnb_models")]
    assert " RETURNING " in record
    assert not any(s.startswith("SELECT m.model AS model") for s in seen)
    db.timer = None
    loaded = sqlnb.load(db, "m")
    assert {k: loaded.info[k] for k in trained.info} == trained.info
    assert (trained.info["n_docs"], trained.info["n_classes"], trained.info["n_features"]) == (
        30.0,
        2,
        13,
    )
    assert isinstance(trained.info["n_docs"], float)
    rows = [m.predict("tokens") for m in (trained, loaded)]  # (the first checks trained_at)
    assert [sorted(map(str, getattr(r, "fetchall", lambda r=r: r)())) for r in rows] == [
        sorted(map(str, getattr(rows[1], "fetchall", lambda: rows[1])()))
    ] * 2


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
def test_counts_that_overflow_write_no_catalog_row_and_are_refused(engine):
    """The INSERT of the catalog row writes none where the counts' sums are not finite; the
    training is refused, naming the sum, and the database is as it was."""
    from sqlnb.errors import SqlnbError

    db = _database(
        engine,
        "CREATE TABLE huge (doc_id INTEGER, word TEXT, count DOUBLE)",
        "INSERT INTO huge VALUES (1, 'a', 1e308), (3, 'b', 1e308), (2, 'a', 1.0)",
    )
    sqlnb.train(db, "tokens", "labels", model="m")
    before = _rows(db, "m")
    with pytest.raises(
        SqlnbError,
        match="tokens table 'huge': the model's counts overflow "
        r"\(the sum of sqlnb_word_counts.count is not a finite number\)",
    ):
        sqlnb.train(db, "huge", "labels", model="m")
    assert _rows(db, "m") == before
    assert [v.version for v in versions.kept(db, "m")] == [1]
