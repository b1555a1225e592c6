"""Golden SQL per construct (tests/goldens.py: the layout): the scripts ``sqlnb sql`` prints
for every dialect, and the SQL functions' definitions on each engine, each split into its
statements and their common table expressions, one small file per piece and dialect. Each
script parses back in its dialect.

Regenerate after an intended change (the diff of tests/golden/ then shows what changed):
SQLNB_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import functools
import hashlib
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import duckdb
import pandas as pd
import pytest
import sqlglot
from sqlglot import exp

import sqlnb
from sqlnb import catalog, functions, unicode
from sqlnb.engine import DIALECTS, Database, dialects, scratch
from sqlnb.engine.postgres import PostgresBackend
from sqlnb.functions import clickhouse as dictionaries
from sqlnb.functions.shape import Shape
from sqlnb.kinds import KINDS
from tests import cli, goldens

ALL = list(DIALECTS)  # the printed ones too: bigquery, snowflake, trino

# sqlnb sql COMMAND ...: the scripts a user runs, on a database with the models "spam"
# (Bernoulli, from tokens), "triage" (mixed, from a table) and "mail" (multinomial, from raw
# text)
SCRIPTS: dict[str, list[str]] = {
    "train_bernoulli": [
        "train", "--tokens", "tokens", "--labels", "labels", "--model", "spam",
        "--kind", "bernoulli",
    ],
    "predict_bernoulli": ["predict", "--model", "spam", "--tokens", "tokens",
                          "--output", "predictions"],
    "evaluate_bernoulli": ["evaluate", "--model", "spam", "--tokens", "tokens",
                           "--labels", "labels"],
    "predict_mixed": ["predict", "--model", "triage", "--table", "patients", "--id-column", "id",
                      "--output", "triaged", "--proba"],
    "train_multinomial": ["train", "--tokens", "tokens", "--labels", "labels", "--model", "spam"],
    "train_complement": ["train", "--tokens", "tokens", "--labels", "labels", "--model", "spam",
                         "--kind", "complement"],
    "train_mixed": ["train", "--table", "patients", "--id-column", "id", "--model", "spam"],
    "train_docs": ["train", "--docs", "emails", "--id-column", "id", "--text-column", "body",
                   "--model", "spam", "--ngrams", "1-2", "--sublinear-tf", "--idf", "smooth",
                   "--doc-norm", "l2"],
    "train_append": ["train", "--tokens", "tokens", "--labels", "labels", "--model", "spam",
                     "--append"],
    "predict_docs": ["predict", "--model", "mail", "--docs", "emails", "--id-column", "id",
                     "--text-column", "body", "--output", "mailed", "--proba"],
}  # fmt: skip
# the families past those the first goldens had: CI runs them, the quick loop does not
LATER = {"train_multinomial", "train_complement", "train_mixed", "train_docs", "train_append"}
LATER.add("predict_docs")
# a statement of these families that is the same in another (the model is "spam" in each
# training) is that family's piece: @train_bernoulli/insert_classes
BASES = {f: "train_bernoulli" for f in SCRIPTS if f.startswith("train_")}
del BASES["train_bernoulli"]
FAMILIES = [pytest.param(f, marks=pytest.mark.slow) if f in LATER else f for f in SCRIPTS]
FUNCTIONS = [
    "functions_duckdb",
    "functions_duckdb_stored",
    "functions_sqlite",
    "functions_postgres",
    "functions_spark",
    "functions_clickhouse",
]
EVALUATION = ["outcomes", "confusion", "per_class", "summary", "reliability"]


def _normal(text: str) -> str:
    """The text without what changes from run to run (sqlnb's version, the scratch names),
    and PostgreSQL's \\pL, \\pM, \\pN written out (11,000 characters on one line, from
    sqlnb/unicode.py's table) as a marker that names the class, the Unicode version and a
    digest of the characters (a change of the table still shows)."""
    text = text.replace(sqlnb.__version__, "<version>").replace(scratch.TOKEN, "xxxxxxxx")
    for category in unicode.CATEGORIES:
        items = unicode.expanded(f"\\p{category}")[1:-1]
        digest = hashlib.sha256(items.encode()).hexdigest()[:12]
        text = text.replace(items, f"<\\p{category} of Unicode {unicode.version()}: {digest}>")
    return text


def _statements(text: str) -> list[str]:
    """A script's statements, each with its ``;\\n`` (sqlglot prints one to a line end)."""
    parts = text.split(";\n")
    assert parts[-1] == "", "a script ends with ;"
    return [p + ";\n" for p in parts[:-1]]


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("golden") / "db.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE tokens AS SELECT * FROM (VALUES (1, 'a', 2), (2, 'b', 1)) "
        "AS t(doc_id, word, count)"
    )
    con.execute(
        "CREATE TABLE labels AS SELECT * FROM (VALUES (1, 'x'), (2, 'y')) AS t(doc_id, label)"
    )
    con.execute(
        "CREATE TABLE patients AS SELECT * FROM (VALUES (1, 36.6, 'no', 'ok'), "
        "(2, 39.1, 'yes', 'ill')) AS t(id, temperature, cough, label)"
    )
    con.execute(
        "CREATE TABLE emails AS SELECT * FROM (VALUES (1, 'Cheap pills now', 'spam'), "
        "(2, 'Lunch at noon?', 'ham')) AS t(id, body, label)"
    )
    db = sqlnb.connect(con)
    sqlnb.train(db, "tokens", "labels", model="spam", kind="bernoulli")
    sqlnb.train(db, sqlnb.Table("patients"), model="triage")
    sqlnb.train(db, sqlnb.Docs("emails", id="id", text="body"), sqlnb.Labels("emails", doc="id"),
                model="mail")  # fmt: skip
    con.close()
    yield path


def _check(family: str, dialect: str, split: goldens.Split, whole: str) -> None:
    """Compare (or with SQLNB_UPDATE_GOLDEN, write) the family's files for the dialect."""
    files = split.files(dialect)
    pieces = {**split.pieces, **split.shared}
    assert goldens.join(files[f"{dialect}.sql"], pieces) == whole, "the split loses text"
    if os.environ.get("SQLNB_UPDATE_GOLDEN"):
        goldens.write(family, dialect, files)
    changed = goldens.differences(family, files, goldens.stored(family, dialect))
    if changed:  # the diff alone, without the test's source around it
        pytest.fail(f"the SQL of {family} on {dialect} changed:\n{changed}", pytrace=False)


@pytest.mark.parametrize("dialect", ALL)
@pytest.mark.parametrize("family", FAMILIES)
def test_scripts(database: Path, family: str, dialect: str) -> None:
    """The script of ``sqlnb sql ...`` as a user gets it, per statement and CTE; it parses."""
    split, text = _script(database, family, dialect)
    _check(family, dialect, split, text)
    parsed = sqlglot.parse(text, read=dialects.dialect(dialect).sqlglot)
    assert all(p is not None for p in parsed) and len(parsed) == len(_statements(text))


@functools.cache
def _script(database: Path, family: str, dialect: str) -> tuple[goldens.Split, str]:
    """The family's script for the dialect, and its split: the CREATE of a table refers to
    tables/, a statement the same as in the family's BASES to that one."""
    command, *options = SCRIPTS[family]
    text = cli.run("sql", command, database, *options, "--dialect", dialect, ok=True).stdout
    text = _normal(text)
    statements = _statements(text)
    names: list[str | None] = [None] * len(statements)
    if family.startswith("evaluate"):  # its queries are SELECTs: named by what they give
        queries = [i for i, s in enumerate(statements) if goldens.piece_name(s) or _select(s)]
        assert len(queries) == len(EVALUATION), f"name the {len(queries)} queries in EVALUATION"
        for i, name in zip(queries, EVALUATION):
            names[i] = name
    shared = _tables(dialect)
    if family in BASES:
        base = BASES[family]
        pieces = _script(database, base, dialect)[0].pieces
        shared |= {f"{base}/{name}": piece for name, piece in pieces.items()}
    split = goldens.Split(shared)
    for statement, name in zip(statements, names):
        split.statement(statement, name)
    return split, text


@functools.cache
def _creates(dialect: str) -> goldens.Split:
    """The CREATE of each of sqlnb's tables and views (every kind's) for the dialect, as the
    scripts print it, each a piece."""
    db = Database.connect(duckdb.connect())
    statements = catalog.creates(db, *KINDS.values(), script=True)
    texts = [_normal(t) for s in statements for t in _statements(_texts(db, s, dialect)[0])]
    return _split_texts(texts)  # an index PostgreSQL creates with a table stays in the script


def _tables(dialect: str) -> dict[str, str]:
    """The pieces of _creates as a script names them: ``tables/<piece>``, its text."""
    return {f"tables/{name}": text for name, text in _creates(dialect).pieces.items()}


@pytest.mark.parametrize("dialect", ALL)
def test_tables(dialect: str) -> None:
    """sqlnb's tables as every script creates them (the scripts name them: @tables/...)."""
    split = _creates(dialect)
    _check("tables", dialect, split, goldens.join("".join(split.script), split.pieces))


def _select(statement: str) -> bool:
    return statement.startswith(("SELECT", "WITH"))


def _split_texts(texts: list[str]) -> goldens.Split:
    split = goldens.Split()
    for text in texts:
        split.statement(text)
    return split


def test_duckdb_macros(database: Path) -> None:
    """DuckDB's macros sqlnb_classify, sqlnb_proba and sqlnb_predict, as a training writes
    them (each model's lookup row built in each query) and after ``sqlnb functions``."""
    con = duckdb.connect(str(database))
    db = Database.connect(con)
    for family, store in (("functions_duckdb", False), ("functions_duckdb_stored", True)):
        if store:
            functions.store(db)
        keys = Shape.of(db).keys
        parts = [dialects.script([s], "duckdb") for s in functions.statements(db, keys)]
        _check(family, "duckdb", _split_texts([_normal(p) for p in parts]), _normal("".join(parts)))
    con.close()


class _Printed(Database):
    """The models of a DuckDB database with another engine's SQL functions, written without
    that engine: the reads the functions are built from run on DuckDB; their SQL is written
    for ``dialect_name``, pretty (to be read: the engine gets the same trees on one line), on
    PostgreSQL with every table qualified by the models' schema ("public") as its backend
    does (PostgresBackend.prepare)."""

    def __init__(self, source: Database, dialect_name: str) -> None:
        super().__init__(source.backend, dialect_name)
        self.source = source

    def sql(self, tree: exp.Expr) -> str:
        if self.dialect.name == "postgres":
            tree = PostgresBackend.prepare(SimpleNamespace(schema_of=lambda _: "public"), tree)
        return dialects.to_sql(tree, self.dialect.sqlglot, pretty=True)

    def fetch(self, tree: exp.Expr) -> list:
        return self.source.fetch(tree)

    def columns(self, source: exp.Expr) -> dict[str, str]:
        return self.source.columns(source)


@pytest.mark.parametrize("dialect", ["postgres", "spark", "clickhouse"])
def test_engine_functions(database: Path, dialect: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL's SQL and PL/pgSQL functions, Spark's SQL functions, ClickHouse's lambdas
    and dictionaries, for the models of the database (the text model "mail")."""
    monkeypatch.setattr(dictionaries, "database", lambda db: "default")  # ClickHouse's own
    monkeypatch.setattr(scratch, "fresh", lambda base: f"{base}_<random>")
    con = duckdb.connect(str(database))
    db = _Printed(Database.connect(con), dialect)
    keys = Shape.of(db).keys
    texts = [_normal(t) for s in functions.statements(db, keys, keys) for t in _texts(db, s)]
    con.close()
    _check(f"functions_{dialect}", dialect, _split_texts(texts), "".join(texts))


class _Pretty(Database):
    """A database whose SQL is written pretty (the engine gets the same trees on one line)."""

    def sql(self, tree: exp.Expr) -> str:
        return dialects.to_sql(self.backend.prepare(tree), self.dialect.sqlglot, pretty=True)


@pytest.mark.parametrize("engine_name", ["postgres", "spark", "clickhouse"])
def test_engine_functions_are_those_the_engine_builds(
    database: Path, engine_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The goldens of test_engine_functions are written without the engine; on the engine
    itself (its catalog read for the tables' schemas, its current database) the functions of
    the same model are the same text, the schema or database named as there."""
    from engines import open_engine

    frame = pd.DataFrame({"id": [1, 2], "body": ["Cheap pills now", "Lunch at noon?"]})
    frame["label"] = ["spam", "ham"]
    opened = open_engine(engine_name)
    engine = next(opened)
    try:
        engine.load("emails", frame)
        docs, labels = sqlnb.Docs("emails", id="id", text="body"), sqlnb.Labels("emails", doc="id")
        sqlnb.train(engine.db, docs, labels, model="mail")
        db = _Pretty(engine.db.backend, engine.db.dialect.name)
        monkeypatch.setattr(scratch, "fresh", lambda base: f"{base}_<random>")  # as printed
        where, golden_where = db.backend.schema or "public", "public"  # PostgreSQL's
        if engine_name == "clickhouse":
            where, golden_where = dictionaries.database(db), "default"
        keys = Shape.of(db).keys
        statements = functions.statements(db, keys, keys)
        texts = [_normal(t).replace(where, golden_where) for s in statements for t in _texts(db, s)]
    finally:
        next(opened, None)
    family = f"functions_{engine_name}"
    files = _split_texts(texts).files(engine_name)
    changed = goldens.differences(family, files, goldens.stored(family, engine_name))
    assert not changed, f"{engine_name} builds other functions than the goldens say:\n{changed}"


def _texts(db: Database, statement: exp.Expr | str, dialect: str | None = None) -> list[str]:
    """A statement as the engine runs it (a tree's own statements), each ended by ;."""
    if isinstance(statement, str):
        return [statement.rstrip().removesuffix(";") + ";\n"]
    name = dialect or db.dialect.name
    settings = "".join(f"{s};\n" for s in dialects.dialect(name).settings)
    return [dialects.script([statement], name).removeprefix(settings)]


def test_sqlite_registered_query(database: Path, tmp_path: Path) -> None:
    """SQLite's sqlnb_classify and sqlnb_proba run one query per model (register_sqlite):
    the query of the text model "mail", its parameters :sqlnb_model and :sqlnb_text."""
    target = tmp_path / "db.sqlite"
    cli.run("export", database, "--model", "mail", "--to", tmp_path / "mail", ok=True)
    cli.run("import", f"sqlite:///{target}", tmp_path / "mail", "--model", "mail", ok=True)
    connection = sqlite3.connect(target)
    seen: list[str] = []
    connection.set_trace_callback(seen.append)
    functions.register_sqlite(connection)
    seen.clear()
    assert connection.execute("SELECT sqlnb_classify('mail', 'cheap pills')").fetchone()
    queries = [s for s in seen if "sqlnb_text" in s or "cheap pills" in s]
    connection.close()
    assert queries, seen
    text = _normal(queries[-1].removeprefix("-- "))
    tree = sqlglot.parse_one(text, read="sqlite")
    pretty = dialects.script([tree], "sqlite")
    split = goldens.Split()
    split.statement(pretty, "query")
    _check("functions_sqlite", "sqlite", split, pretty)


def test_every_family_is_generated() -> None:
    """A folder of tests/golden that no test writes any more is a golden nobody checks."""
    folders = {p.name for p in goldens.ROOT.iterdir() if p.is_dir()}
    known = {"tables", *SCRIPTS, *FUNCTIONS}
    assert folders == known, f"remove or generate: {folders ^ known}"


def test_a_changed_construct_shows_a_small_diff_of_its_own_file() -> None:
    """One line changed in predict's jll: the diff names that file alone, a few lines long,
    and says how to regenerate; putting the pieces back gives the script again."""
    found = goldens.stored("predict_bernoulli", "duckdb")
    pieces = {name.split("/")[0]: text for name, text in found.items() if "/" in name}
    script = goldens.join(found["duckdb.sql"], pieces)
    assert "ELSE j.base + j.score END AS jll" in pieces["jll"]
    changed = script.replace("ELSE j.base + j.score END AS jll", "ELSE j.score END AS jll")
    split = _split_texts(_statements(changed))
    diff = goldens.differences("predict_bernoulli", split.files("duckdb"), found)
    assert [line for line in diff.splitlines() if line.startswith("+++")] == [
        "+++ tests/golden/predict_bernoulli/jll/duckdb.sql"
    ]
    assert len(diff.splitlines()) < 15, diff
    assert goldens.REGENERATE in diff
    assert goldens.join("".join(split.script), split.pieces) == changed
