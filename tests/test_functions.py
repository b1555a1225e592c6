"""Ad-hoc SQL (issue 17): sqlnb_classify, sqlnb_proba (and on PostgreSQL sqlnb_predict) from a
plain client connection that never imports sqlnb, on PostgreSQL and Spark, equal to
``sqlnb predict`` to 1e-9; SQLite's registered functions."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest
from engines import POSTGRES_URL, open_engine

import sqlnb

TEXTS = [
    "good tasty food, great value",
    "bad stale food; awful value",
    "good good good",
    "stale awful bad bad",
    "Éclair naïve DON'T 42x good",
    "the service was fine",
]
UNSEEN = ["zzz qqq", "", None]  # no known word (the prior), empty, NULL


@pytest.fixture
def pg():
    yield from open_engine("postgres")


@pytest.fixture(params=["postgres", "spark", "clickhouse"])
def engine(request):
    yield from open_engine(request.param)


def client(engine):
    """A second connection, as psql or a BI tool would open it: psycopg alone."""
    import psycopg

    schema = engine.db.connection.execute("SELECT current_schema()").fetchone()[0]
    connection = psycopg.connect(POSTGRES_URL, autocommit=True)
    connection.execute(f"SET search_path TO {schema}")
    return connection


def rows(engine, query: str) -> list[tuple]:
    """The rows of ``query`` from a plain client of the engine: psycopg alone, or for Spark a
    session of its own as spark-sql is (no sqlnb, none of its temporary views), in the same
    database."""
    if engine.name == "spark":
        session = engine.db.connection.newSession()
        session.sql(f"USE {engine.db.connection.catalog.currentDatabase()}")
        return [tuple(r) for r in session.sql(query).collect()]
    if engine.name == "clickhouse":  # the functions are the server's: any client calls them
        return [tuple(r) for r in engine.db.connection.query(query).result_rows]
    with client(engine) as con:
        return con.execute(query).fetchall()


def client_error(engine) -> type[Exception]:
    if engine.name == "clickhouse":
        from clickhouse_connect.driver.exceptions import ClickHouseError

        return ClickHouseError
    if engine.name == "spark":
        from pyspark.errors import PySparkException

        return PySparkException
    import psycopg

    return psycopg.Error


def docs(n: int = 60) -> pd.DataFrame:
    rows = [(i, TEXTS[i % len(TEXTS)] + f" w{i % 7}", f"c{i % 3}") for i in range(n)]
    return pd.DataFrame(rows, columns=["doc_id", "text", "label"])


def predictions(model: sqlnb.Model, table: str) -> dict[int, tuple[str, float]]:
    found = model.predict(sqlnb.Docs(table))
    found = found.collect() if hasattr(found, "collect") else found  # Spark: a DataFrame
    found = found.fetchall() if hasattr(found, "fetchall") else found  # DuckDB: a relation
    return {d: (label, p) for d, label, p in found}


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"alpha": 0.0},
        {"kind": "bernoulli"},
        {"kind": "complement"},
        {"ties": True},
        {
            "kind": "complement",
            "norm": True,
            "sublinear_tf": True,
            "idf": "smooth",
            "doc_norm": "l2",
        },
        {"idf": "plain", "doc_norm": "l1"},
    ],
    ids=["multinomial", "alpha0", "bernoulli", "complement", "ties", "tfidf", "tfidf_l1"],
)
def test_functions_equal_predict(engine, options):
    options, train = dict(options), docs()  # (a copy: the parameters serve every engine)
    if options.pop("ties", False):  # two classes with the same documents: every jll ties
        train = pd.concat([train.assign(label="a"), train.assign(label="b")], ignore_index=True)
        train["doc_id"] = range(len(train))
    engine.load("train", train)
    test = docs(30)
    test["text"] = [*test["text"][:27], *UNSEEN]
    engine.load("test", test)
    model = sqlnb.train(engine.db, sqlnb.Docs("train"), model="m", **options)
    expected = predictions(model, "test")
    got = rows(engine, "SELECT doc_id, sqlnb_classify('m', text), sqlnb_proba('m', text) FROM test")
    assert len(got) == 30
    for doc_id, label, proba in got:
        want_label, want_proba = expected[doc_id]
        assert label == want_label, doc_id
        assert math.isclose(proba, want_proba, rel_tol=1e-9, abs_tol=1e-12), doc_id
    if train["label"].nunique() == 2:  # the ties: the first class, at probability one half
        assert {label for _, label, _ in got} == {"a"}
        assert all(math.isclose(p, 0.5) for _, _, p in got)


def test_a_table_by_name_unknown_models_and_models_without_a_tokenizer(pg):
    pg.load("train", docs())
    sqlnb.train(pg.db, sqlnb.Docs("train"), model="text")
    tokens = pd.DataFrame(
        [(i, w, 1) for i, t in enumerate(TEXTS * 5) for w in t.lower().split()],
        columns=["doc_id", "word", "count"],
    )
    labels = pd.DataFrame(
        [(i, f"c{i % 2}") for i in range(len(TEXTS) * 5)], columns=["doc_id", "label"]
    )
    pg.load("tok", tokens)
    pg.load("lab", labels)
    model = sqlnb.train(pg.db, "tok", "lab", model="tokens")
    expected = sorted((str(d), label, p) for d, label, p in model.predict("tok"))
    import psycopg

    with client(pg) as con:
        got = sorted(con.execute("SELECT * FROM sqlnb_predict('tokens', 'tok')").fetchall())
        assert [r[:2] for r in got] == [r[:2] for r in expected]
        assert all(math.isclose(a[2], b[2], rel_tol=1e-9) for a, b in zip(got, expected))
        typed = con.execute(  # ids of the type of a third argument: the table's integers
            "SELECT * FROM sqlnb_predict('tokens', 'tok', NULL::bigint) ORDER BY doc_id"
        ).fetchall()
        assert [r[0] for r in typed] == sorted(int(r[0]) for r in expected)
        assert sorted((str(d), label, p) for d, label, p in typed) == got
        for query, message in [
            ("SELECT sqlnb_classify('nope', 'x')", "no model named 'nope' in this database"),
            ("SELECT sqlnb_proba('nope', 'x')", "no model named 'nope' in this database"),
            ("SELECT * FROM sqlnb_predict('nope', 'tok')", "no model named 'nope'"),
            (
                "SELECT sqlnb_classify('tokens', 'good food')",
                "model 'tokens' has no tokenizer (it was not trained from text)",
            ),
            ("SELECT * FROM sqlnb_predict('text', 'missing')", "table 'missing' does not exist"),
        ]:
            with pytest.raises(psycopg.Error) as raised:
                con.execute(query).fetchall()
            assert message in str(raised.value), query


def test_postgres_functions_look_words_up_by_the_hash_key(pg):
    """Each word of a text is one probe of the hash index on model || ' ' || word (of
    sqlnb_scoring, and of sqlnb_transform for a TF-IDF model), not a scan: the index's
    scans as PostgreSQL counts them, from a plain client."""
    texts = [  # a vocabulary of 20,000 words: too many to scan for each text
        (i, " ".join(f"w{(i * 7 + j * 131) % 20_000}" for j in range(10)), f"c{i % 3}")
        for i in range(2_000)
    ]
    pg.load("train", pd.DataFrame(texts, columns=["doc_id", "text", "label"]))
    sqlnb.train(pg.db, sqlnb.Docs("train"), model="plain")
    sqlnb.train(pg.db, sqlnb.Docs("train"), model="idf", idf="smooth")
    schema = pg.db.connection.execute("SELECT current_schema()").fetchone()[0]
    with client(pg) as con:
        counts = (
            "SELECT relname, idx_scan FROM pg_stat_user_indexes "
            "WHERE schemaname = %s AND indexrelname LIKE '%%lookup' ORDER BY relname"
        )
        con.execute("SELECT pg_stat_force_next_flush()")
        before = dict(con.execute(counts, [schema]).fetchall())
        for model in ("plain", "idf"):
            con.execute(
                "SELECT sqlnb_classify(%s, text), sqlnb_proba(%s, text) FROM train", [model, model]
            ).fetchall()
        con.execute("SELECT pg_stat_force_next_flush()")
        after = dict(con.execute(counts, [schema]).fetchall())
        defined = con.execute(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = %s AND indexname LIKE "
            "'%%lookup' ORDER BY indexname",
            [schema],
        ).fetchall()
    assert sorted(after) == ["sqlnb_scoring", "sqlnb_transform"]
    words = 10 * len(texts)  # each word: one probe for each function
    assert after["sqlnb_scoring"] - before["sqlnb_scoring"] >= 4 * words
    assert after["sqlnb_transform"] - before["sqlnb_transform"] >= 2 * words
    assert all("USING hash" in d and "(model || ' '::text) || word" in d for (d,) in defined)


def test_functions_follow_retraining_with_another_tokenizer_and_drop(engine):
    engine.load("train", docs())
    first = sqlnb.train(engine.db, sqlnb.Docs("train"), model="m")
    bigrams = sqlnb.Tokenizer(ngrams=(1, 2))
    model = sqlnb.train(engine.db, sqlnb.Docs("train"), model="m2", tokenizer=bigrams)
    for name, trained in (("m", first), ("m2", model)):
        expected = predictions(trained, "train")
        query = (
            f"SELECT doc_id, sqlnb_classify('{name}', text), sqlnb_proba('{name}', text) FROM train"
        )
        got = {d: (label, p) for d, label, p in rows(engine, query)}
        assert {d: v[0] for d, v in got.items()} == {d: v[0] for d, v in expected.items()}
        assert all(math.isclose(got[d][1], expected[d][1], rel_tol=1e-9) for d in got)
    sqlnb.drop(engine.db, "m2")
    # (ClickHouse's throwIf takes a constant message, which cannot name the model)
    unknown = "no text model of that name" if engine.name == "clickhouse" else "no model named 'm2'"
    with pytest.raises(client_error(engine), match=unknown):
        rows(engine, "SELECT sqlnb_classify('m2', 'good')")


@pytest.fixture
def spark():
    yield from open_engine("spark")


def test_spark_unknown_models_and_models_without_a_tokenizer(spark):
    spark.load("train", docs())
    sqlnb.train(spark.db, sqlnb.Docs("train"), model="text")
    tokens = pd.DataFrame(
        [(i, w, 1) for i, t in enumerate(TEXTS * 5) for w in t.lower().split()],
        columns=["doc_id", "word", "count"],
    )
    spark.load("tok", tokens)
    spark.load(
        "lab", pd.DataFrame([(i, f"c{i % 2}") for i in range(30)], columns=["doc_id", "label"])
    )
    sqlnb.train(spark.db, "tok", "lab", model="tokens")
    from pyspark.errors import PySparkException

    for query, message in [
        ("SELECT sqlnb_classify('nope', 'x')", "no model named 'nope' in this database"),
        ("SELECT sqlnb_proba('nope', 'x')", "no model named 'nope' in this database"),
        (
            "SELECT sqlnb_classify('tokens', 'good food')",
            "model 'tokens' has no tokenizer (it was not trained from text): classify its "
            "tokens with sqlnb predict",
        ),
    ]:
        with pytest.raises(PySparkException, match=re.escape(message)):
            rows(spark, query)


# --- SQLite: Python functions registered on a plain sqlite3 connection -------------------------


@pytest.mark.parametrize("kind", ["multinomial", "bernoulli", "complement"])
def test_sqlite_registered_functions_equal_predict(tmp_path, kind):
    import sqlite3

    path = tmp_path / "db.sqlite"
    writer = sqlite3.connect(path, isolation_level=None)
    docs().to_sql("train", writer, index=False)
    test = docs(30)
    test["text"] = [*test["text"][:27], *UNSEEN]
    test.to_sql("test", writer, index=False)
    model = sqlnb.train(writer, sqlnb.Docs("train"), model="m", kind=kind)
    expected = predictions(model, "test")
    writer.close()
    plain = sqlite3.connect(path)  # a client of its own, given the functions
    sqlnb.register_sqlite(plain)
    got = plain.execute(
        "SELECT doc_id, sqlnb_classify('m', text), sqlnb_proba('m', text) FROM test"
    ).fetchall()
    assert len(got) == 30
    for doc_id, label, proba in got:
        assert label == expected[doc_id][0], doc_id
        assert math.isclose(proba, expected[doc_id][1], rel_tol=1e-9, abs_tol=1e-12), doc_id
    with pytest.raises(sqlite3.OperationalError):
        plain.execute("SELECT sqlnb_classify('nope', 'x')").fetchall()


def test_sqlite_functions_in_one_row_read_one_model(tmp_path):
    """A retraining between the two functions of a row (here by a function called between
    them) never gives one model's label with the other's probability."""
    import sqlite3

    path = tmp_path / "db.sqlite"
    writer = sqlite3.connect(path, isolation_level=None)
    docs().to_sql("train", writer, index=False)
    sqlnb.train(writer, sqlnb.Docs("train"), model="m")
    plain = sqlite3.connect(path, isolation_level=None)
    sqlnb.register_sqlite(plain)
    text = "good tasty food, great value"
    before = plain.execute("SELECT sqlnb_classify('m', ?), sqlnb_proba('m', ?)", [text, text])
    label, proba = before.fetchone()

    def retrain() -> int:  # another connection replaces the model with a very different one
        sqlnb.train(writer, sqlnb.Docs("train"), model="m", alpha=50.0, fit_prior=False)
        return 1

    plain.create_function("retrain", 0, retrain)
    row = plain.execute(
        "SELECT sqlnb_classify('m', ?), retrain(), sqlnb_proba('m', ?)", [text, text]
    ).fetchone()
    assert (row[0], row[2]) == (label, proba)  # both from the model before the retraining
    after = plain.execute("SELECT sqlnb_proba('m', ?)", [text]).fetchone()[0]
    assert not math.isclose(after, proba, rel_tol=1e-6)  # the next statement sees the new one


# --- DuckDB: the macros, which score a text with list functions ---------------------------------

# Texts for the tokenizer's corners: punctuation, apostrophes, Unicode, upper case, digits,
# runs of spaces (the split-at-spaces path), stop words, repeated words.
WORDS = [
    "the food was good good, GOOD",
    "it's  stale   and awful; don't buy",
    "Éclair naïve café 42x great value",
    "bad bad bad service the end",
    "good value for the price",
    "awful",
]

DUCKDB_MODELS = {  # name: training options, each model a corner of scoring or tokenizing
    "multinomial": {},
    "alpha0": {"alpha": 0.0},
    "bernoulli": {"kind": "bernoulli"},
    "bernoulli_alpha0": {"kind": "bernoulli", "alpha": 0.0},
    "bernoulli_beta0": {"kind": "bernoulli", "beta": 0.0},
    "complement": {"kind": "complement"},
    "complement_norm": {"kind": "complement", "norm": True},
    "bigrams": {"tokenizer": sqlnb.Tokenizer(ngrams=(1, 2))},
    "bigrams_stop": {"tokenizer": sqlnb.Tokenizer(ngrams=(1, 2), stop_words=("the", "and"))},
    "grams_2_3": {"kind": "bernoulli", "tokenizer": sqlnb.Tokenizer(ngrams=(2, 3))},
    "stop": {"tokenizer": sqlnb.Tokenizer(stop_words=("the", "and", "good"))},
    "cased": {"tokenizer": sqlnb.Tokenizer(lowercase=False)},
    "pattern": {"kind": "bernoulli", "tokenizer": sqlnb.Tokenizer(pattern="[a-z]+")},
}


def duckdb_docs(n: int, seed: int) -> pd.DataFrame:
    import random

    pick = random.Random(seed)
    rows = [
        (i, " ".join(pick.sample(WORDS, 2)) + f" w{pick.randrange(9)}", f"c{i % 3}")
        for i in range(n)
    ]
    return pd.DataFrame(rows, columns=["doc_id", "text", "label"])


def test_duckdb_macros_refuse_unknown_models_and_models_without_a_tokenizer():
    import duckdb

    con = duckdb.connect()
    con.register("frame", duckdb_docs(30, 3))
    con.execute("CREATE TABLE train AS SELECT * FROM frame")
    con.execute("CREATE TABLE tok AS SELECT 1 AS doc_id, 'good' AS word, 2 AS count")
    con.execute("CREATE TABLE lab AS SELECT 1 AS doc_id, 'c0' AS label")
    sqlnb.train(con, sqlnb.Docs("train"), model="text")
    sqlnb.train(con, "tok", "lab", model="tokens")
    for query, message in [
        ("SELECT sqlnb_classify('nope', 'x')", "no model named 'nope' in this database"),
        ("SELECT sqlnb_proba('nope', text) FROM train", "no model named 'nope' in this database"),
        (
            "SELECT sqlnb_classify('tokens', 'good food')",
            "model 'tokens' has no tokenizer (it was not trained from text): classify its "
            "tokens with sqlnb_predict",
        ),
    ]:
        with pytest.raises(duckdb.Error, match=re.escape(message)):
            con.execute(query).fetchall()


@pytest.fixture(params=["duckdb", "sqlite", "postgres", "spark", "clickhouse"])
def every_engine(request):
    yield from open_engine(request.param)


def function_rows(engine, query: str) -> list[tuple]:
    """The functions' rows: from a plain client (PostgreSQL, Spark), from DuckDB's own
    connection, or from SQLite's with the functions registered."""
    if engine.name in ("postgres", "spark", "clickhouse"):
        return rows(engine, query)
    connection = engine.db.connection
    if engine.name == "sqlite":
        sqlnb.register_sqlite(connection)
    return [tuple(r) for r in connection.execute(query).fetchall()]


def test_functions_use_the_calibration(every_engine):
    """After each calibration, sqlnb_classify and sqlnb_proba equal predict's calibrated labels
    and probabilities; with two classes and with three."""
    engine = every_engine
    train = docs()
    binary = train.assign(label=[f"b{i % 2}" for i in range(len(train))])
    engine.load("train", train)
    engine.load("binary", binary)
    engine.load("cal", docs(45))
    engine.load("cal2", docs(45).assign(label=[f"b{i % 2}" for i in range(45)]))
    test = docs(30)
    test["text"] = [*test["text"][:28], *UNSEEN[:2]]
    engine.load("test", test)
    every = ("temperature", "sigmoid", "isotonic")
    for name, data, calibration in (("m", "train", "cal"), ("m2", "binary", "cal2")):
        model = sqlnb.train(engine.db, sqlnb.Docs(data), model=name, alpha=0.3)
        raw = predictions(model, "test")
        # Spark (a second or more a query): one method per model, both forms of the SQL
        spark = ("temperature",) if name == "m" else ("isotonic",)
        for method in spark if engine.name == "spark" else every:
            model.calibrate(sqlnb.Docs(calibration), method=method)
            expected = predictions(sqlnb.load(engine.db, name), "test")
            got = function_rows(
                engine,
                f"SELECT doc_id, sqlnb_classify('{name}', text), sqlnb_proba('{name}', text) "
                "FROM test",
            )
            assert len(got) == 30
            # the calibration changes the probabilities (these are not the raw ones)
            assert max(abs(expected[d][1] - raw[d][1]) for d in raw) > 1e-6, method
            for doc_id, label, proba in got:
                assert label == expected[doc_id][0], (name, method, doc_id)
                assert math.isclose(proba, expected[doc_id][1], rel_tol=1e-9, abs_tol=1e-12)
