"""The command line as people use it (issue 18): errors that name what is wrong, output that
pipes, files and printed rows, the version, and the README's Python example."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import documentation
import duckdb
import pytest
from conftest import copy_database, random_corpus
from test_cli import run, snapshot

import sqlnb


@pytest.fixture
def db(db_once: Path, tmp_path: Path) -> str:
    """A DuckDB file with a trained model 'spam', its test set and a wide table: the module's,
    a copy of its own for each test (tests write to it)."""
    return str(copy_database(db_once, tmp_path / "db.duckdb"))


@pytest.fixture(scope="module")
def db_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    corpus = random_corpus(11, n_classes=3, vocab=200)
    path = tmp_path_factory.mktemp("trained") / "db.duckdb"
    with duckdb.connect(str(path)) as con:
        corpus.load(con)
        con.execute("CREATE TABLE tokens AS SELECT * FROM train_tokens")
        con.execute("CREATE TABLE labels AS SELECT * FROM train_labels")
        con.execute("CREATE TABLE empty AS SELECT * FROM tokens WHERE false")
        con.execute(
            "CREATE TABLE elsewhere AS SELECT doc_id + 1000000 AS doc_id, word, count FROM tokens"
        )
        con.execute("CREATE TABLE renamed AS SELECT doc_id AS id, word, count FROM tokens")
        con.execute("INSERT INTO renamed VALUES (NULL, 'w', 1), (NULL, 'v', 2)")
        con.execute("CREATE TABLE renamed_labels AS SELECT doc_id AS id, label FROM labels")
        con.execute(
            "CREATE TABLE shop AS SELECT i AS id, 'c' || (i % 3) AS label, "
            + ", ".join(f"'v' || ((i * {j + 7}) % 40) AS f{j}" for j in range(5))
            + " FROM range(300) t(i)"
        )
    code, _, err = run("train", str(path), "--model", "spam")
    assert code == 0, err
    code, _, err = run(
        "train", str(path), "--model", "cats", "--table", "shop", "--categorical", "f0,f1,f2,f3,f4"
    )
    assert code == 0, err
    return path


def one_line_error(code: int, stderr: str, expected_code: int = 1) -> str:
    assert code == expected_code, stderr
    assert stderr.startswith("Error: ") and stderr.count("\n") == 1, stderr
    return stderr


# --- bugs ------------------------------------------------------------------------------------


@pytest.mark.parametrize("tokens", ["empty", "elsewhere"])
def test_a_text_model_without_a_word_is_refused_naming_both_tables(db: str, tokens: str):
    before = snapshot(Path(db))
    code, _, err = run("train", db, "--model", "x", "--tokens", tokens)
    one_line_error(code, err)
    assert f"tokens table '{tokens}' has no word of a document in labels table 'labels'" in err
    assert snapshot(Path(db)) == before


def test_a_null_id_names_the_column_as_the_user_named_it(db: str):
    code, _, err = run(
        "train",
        db,
        "--model",
        "x",
        "--tokens",
        "renamed",
        "--labels",
        "renamed_labels",
        "--doc-column",
        "id",
    )
    one_line_error(code, err)
    assert "tokens table 'renamed' has 2 rows with a NULL document id in column 'id'" in err


def test_output_in_a_pipe_is_not_wrapped(db: str):
    code, out, _ = run(
        "evaluate", db, "--model", "spam", "--tokens", "test_tokens", "--labels", "test_labels"
    )
    assert code == 0
    first = out.splitlines()[0]  # COLUMNS is 40 in run(): a terminal's width would wrap it
    assert len(first) > 40 and "accuracy" in first and "log-loss" in first


def test_models_and_show_are_brief_and_show_has_json(db: str, tmp_path: Path):
    docs = tmp_path / "docs.duckdb"
    with duckdb.connect(str(docs)) as con:
        con.execute(
            "CREATE TABLE d AS SELECT i AS doc_id, CASE WHEN i % 2 = 0 THEN 'good tasty food' "
            "ELSE 'bad stale food' END AS text, i % 2 AS label FROM range(20) t(i)"
        )
    code, _, err = run("train", str(docs), "--docs", "d", "--stop-words", "english")
    assert code == 0, err
    code, out, _ = run("models", str(docs))
    assert code == 0 and '"stop_words": "english"' in out and '"afterwards"' not in out
    code, out, _ = run("show", db, "--model", "cats", "--top", "2")
    assert code == 0
    # one line per feature and class (5 x 3), each with its 2 most probable values
    lines = re.findall(r"^│ (f\d) +│ (c\d) +│ (.+?) +│$", out, re.M)
    assert len(lines) == 5 * 3 and all(len(v.split(", ")) == 2 for _, _, v in lines)
    code, out, _ = run("show", db, "--model", "cats", "--top", "2", "--json")
    shown = json.loads(out)
    assert shown["model"] == "cats" and len(shown["categories"]) == 30
    assert [c["label"] for c in shown["classes"]] == ["c0", "c1", "c2"]


def test_a_failed_command_leaves_no_new_database_file(tmp_path: Path):
    typo = tmp_path / "typo.duckdb"
    code, _, err = run("train", str(typo), "--tokens", "nope")
    one_line_error(code, err)
    assert not typo.exists() and not (tmp_path / "typo.duckdb.wal").exists()


def test_report_does_not_overwrite_a_file_unless_asked(db: str, tmp_path: Path):
    page = tmp_path / "r.html"
    page.write_text("mine")
    args = ["report", db, "--model", "spam", "--tokens", "test_tokens", "--labels", "test_labels"]
    code, _, err = run(*args, "--output", str(page))
    one_line_error(code, err)
    assert "exists: give --replace" in err and page.read_text() == "mine"
    code, _, err = run(*args, "--output", str(page), "--replace")
    assert code == 0, err and page.read_text().startswith("<!doctype html>")


def test_explain_an_unknown_document_is_an_error_and_a_known_one_names_the_runner_up(db: str):
    args = ["explain", db, "--model", "spam", "--tokens", "test_tokens"]
    code, _, err = run(*args, "--doc", "123456789")
    one_line_error(code, err)
    assert "no document '123456789' in tokens table 'test_tokens'" in err
    with duckdb.connect(db, read_only=True) as con:  # closed before the command runs
        doc = con.execute("SELECT MIN(doc_id) FROM test_tokens").fetchone()[0]
        proba = sqlnb.load(con, "spam").predict_proba("test_tokens").fetchall()
    ranked = sorted(((label, p) for d, label, p in proba if d == doc), key=lambda r: -r[1])
    code, out, _ = run(*args, "--doc", str(doc))
    assert code == 0
    assert (
        f"why {ranked[0][0]} (P = {ranked[0][1]:.4f}) rather than the runner-up {ranked[1][0]}"
        in out
    )


# --- output: printed rows and files ----------------------------------------------------------


def test_predict_prints_rows_or_writes_a_file_by_the_engine(db: str, tmp_path: Path):
    with duckdb.connect(db, read_only=True) as con:  # closed before the command runs
        expected = sorted(sqlnb.load(con, "spam").predict("test_tokens").fetchall())
    args = ["predict", db, "--model", "spam", "--tokens", "test_tokens"]
    code, out, _ = run(*args)  # no --output, in a pipe: CSV with a header, in document order
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["doc_id", "label", "proba"]
    assert [(int(d), label, float(p)) for d, label, p in rows[1:]] == expected
    code, out, _ = run(*args, "--output", "-", "--format", "json")
    got = [json.loads(line) for line in out.splitlines()]
    assert [(r["doc_id"], r["label"], r["proba"]) for r in got] == expected
    for suffix in ("parquet", "csv", "json"):
        file = tmp_path / f"p.{suffix}"
        code, out, err = run(*args, "--output", str(file))
        assert code == 0, err
        assert out == f"wrote {len(expected)} rows to {file}\n"
        read = duckdb.sql(f"SELECT doc_id, label, proba FROM '{file}'").fetchall()
        assert read == expected  # exact floats, in document order
        code, _, err = run(*args, "--output", str(file))
        assert "exists: give --replace" in one_line_error(code, err)
    assert not list(tmp_path.glob(".*partial"))


# --- friction --------------------------------------------------------------------------------


def test_version_usage_errors_and_model_name_suggestions(db: str):
    code, out, _ = run("--version")
    assert code == 0 and out == f"sqlnb {sqlnb.__version__}\n"
    code, _, err = run("train", db, "--bogus")
    one_line_error(code, err, expected_code=2)
    assert "No such option: --bogus" in err and "sqlnb train -h" in err
    code, _, err = run("show", db, "--model", "spma")
    assert "no model named 'spma' in this database: did you mean 'spam'?" in one_line_error(
        code, err
    )
    code, _, err = run("show", db, "--model", "zzzzzz")
    assert "(models: cats, spam)" in one_line_error(code, err)


@pytest.mark.slow  # 15 s in CI (issue 36: out of the quick loop, still in CI)
def test_the_readmes_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    python_page = documentation.page("reference/python.md")
    code = re.search(r"```python\n(.*?)```", python_page, re.S).group(1)
    readme = documentation.README.read_text()
    first = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    corpus = random_corpus(4, n_classes=2, vocab=100)
    with duckdb.connect("db.duckdb") as con:
        corpus.load(con)
        for name, source in [
            ("tokens", "train_tokens"),
            ("labels", "train_labels"),
            ("new_tokens", "test_tokens"),
            ("held_tokens", "test_tokens"),
            ("held_labels", "test_labels"),
        ]:
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM {source}")
        con.execute(
            "CREATE TABLE costs AS SELECT a.label AS actual, p.label AS predicted, "
            "CASE WHEN a.label = p.label THEN 0 ELSE 1 END AS cost "
            "FROM (SELECT DISTINCT label FROM labels) AS a, "
            "(SELECT DISTINCT label FROM labels) AS p"
        )
        con.execute("CREATE TABLE t AS SELECT doc_id AS id, word AS term, count AS n FROM tokens")
        con.execute("CREATE TABLE l AS SELECT doc_id AS id, label AS category FROM labels")
        con.execute(
            "CREATE TABLE reviews AS SELECT l.doc_id AS review_id, l.label AS label, "
            "string_agg(t.word, ' ') AS body FROM labels AS l JOIN tokens AS t USING (doc_id) "
            "GROUP BY l.doc_id, l.label"
        )
        con.execute("CREATE TABLE pool AS SELECT * FROM test_tokens")
    exec(compile(code, "docs/reference/python.md", "exec"), {})  # the docs' own example
    exec(compile(first, "README.md", "exec"), {})  # and the README's thirty seconds


def test_the_demo_computes_what_it_compares_with(tmp_path: Path):
    code, out, err = run("demo", str(tmp_path / "demo.duckdb"))
    assert code == 0, err
    ours = re.search(r"test split: accuracy (\d\.\d{4})", out)
    theirs = re.search(r"scikit-learn on the same words: accuracy (\d\.\d{4})", out)
    assert ours and theirs and ours.group(1) == theirs.group(1)
    words = re.findall(r"^│ (?:great|other)\s+│ (.+?)\s+│", out, re.M)
    from sqlnb.stop_words import ENGLISH

    shown = [w.strip() for line in words for w in line.split(",")]
    assert shown and not set(shown) & set(ENGLISH)


def test_predict_to_a_file_on_sqlite(tmp_path: Path):
    import sqlite3

    corpus = random_corpus(12, n_classes=2, vocab=80)
    path = tmp_path / "db.sqlite"
    with sqlite3.connect(path) as con:
        for name in ("train_tokens", "train_labels", "test_tokens"):
            getattr(corpus, name).to_sql(name, con, index=False)
    target = f"sqlite:///{path}"
    code, _, err = run("train", target, "--tokens", "train_tokens", "--labels", "train_labels")
    assert code == 0, err
    out = tmp_path / "p.csv"
    code, _, err = run("predict", target, "--tokens", "test_tokens", "--output", str(out))
    assert code == 0, err
    with sqlite3.connect(path) as con:
        expected = sorted(sqlnb.load(con).predict("test_tokens"))
    rows = list(csv.reader(io.StringIO(out.read_text())))[1:]
    assert [(int(d), label, float(p)) for d, label, p in rows] == expected


def test_export_never_removes_other_files_and_refuses_the_current_folder(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    code, _, err = run("export", db, "--model", "spam", "--output", str(mine))
    assert "exists and is not a model file" in one_line_error(code, err)
    assert (mine / "notes.txt").read_text() == "keep me"
    model = tmp_path / "model"
    code, _, err = run("export", db, "--model", "spam", "--output", str(model))
    assert code == 0, err
    assert model.stat().st_mode & 0o777 == 0o777 & ~_umask()  # as mkdir would make it
    monkeypatch.chdir(model)
    code, _, err = run("export", db, "--model", "spam", "--output", ".")
    assert "is the current folder" in one_line_error(code, err)


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_labels_that_look_like_markup_are_printed_as_they_are(tmp_path: Path):
    path = tmp_path / "m.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute(
            "CREATE TABLE d AS SELECT i AS doc_id, CASE WHEN i % 2 = 0 THEN 'good food' "
            "ELSE 'bad food' END AS text, CASE WHEN i % 2 = 0 THEN '[/x]' ELSE '[red]spam' END "
            "AS label FROM range(10) t(i)"
        )
    code, _, err = run("train", str(path), "--docs", "d")
    assert code == 0, err
    code, out, err = run("predict", str(path), "--docs", "d", "--format", "table")
    assert code == 0, err
    assert "[/x]" in out and "[red]spam" in out
    code, out, err = run("show", str(path))
    assert code == 0, err
    assert "[/x]" in out and "[red]spam" in out


def test_explain_a_row_of_a_table_names_its_own_runner_up(db: str):
    """With --table (or --docs) the title's probabilities are the document's own, not another
    document's (they were the priors: every other row of the table, scored without features)."""
    with duckdb.connect(db) as con:
        con.execute(
            "CREATE TABLE g AS SELECT i AS id, ['a', 'b', 'c'][i % 3 + 1] AS label, "
            "CAST(i % 3 AS DOUBLE) + sin(i) AS x FROM range(90) t(i)"
        )
    code, _, err = run("train", db, "--model", "g", "--table", "g", "--label-column", "label")
    assert code == 0, err
    with duckdb.connect(db, read_only=True) as con:
        proba = sqlnb.load(con, "g").predict_proba(sqlnb.Table("g", "id")).fetchall()
    by_doc: dict[int, list[tuple[str, float]]] = {}
    for d, label, p in proba:
        by_doc.setdefault(d, []).append((label, p))
    # the row whose runner-up is least probable: below every prior, where the bug showed
    doc = min(by_doc, key=lambda d: sorted(p for _, p in by_doc[d])[-2])
    ranked = sorted(by_doc[doc], key=lambda r: -r[1])
    assert ranked[1][1] < 0.3  # the priors are 1/3
    code, out, err = run("explain", db, "--model", "g", "--table", "g", "--doc", str(doc))
    assert code == 0, err
    assert (
        f"why {ranked[0][0]} (P = {ranked[0][1]:.4f}) rather than the runner-up {ranked[1][0]} "
        f"(P = {ranked[1][1]:.4f})" in out
    )


def test_a_parquet_path_where_the_engine_cannot_read_one_is_one_clear_line(tmp_path: Path):
    """SQLite (and PostgreSQL, ClickHouse) cannot read a Parquet file by its path: the error
    names the engine and the file (it was "table '' does not exist"), and no database file is
    left behind."""
    tokens, labels = tmp_path / "tokens.parquet", tmp_path / "labels.parquet"
    duckdb.sql(f"COPY (SELECT 1 AS doc_id, 'a' AS word, 1 AS count) TO '{tokens}'")
    duckdb.sql(f"COPY (SELECT 1 AS doc_id, 'x' AS label) TO '{labels}'")
    target = tmp_path / "new.db"
    code, _, err = run(
        "train", f"sqlite:///{target}", "--tokens", str(tokens), "--labels", str(labels)
    )
    one_line_error(code, err)
    assert "sqlite cannot read the Parquet file" in err and ".parquet'" in err
    assert not target.exists()


@pytest.mark.slow  # 8 s in CI (issue 36: out of the quick loop, still in CI)
def test_tune_from_the_command_line_keeps_the_hyperparameters_given(db: str):
    import sqlnb

    code, out, err = run(
        "tune", db, "--alpha", "0.1,1", "--folds", "3", "--idf", "smooth", "--json"
    )
    assert code == 0, err
    with duckdb.connect(db) as con:
        api = sqlnb.tune(con, "tokens", "labels", alphas=[0.1, 1.0], folds=3, idf="smooth")
    got = json.loads(out)
    wanted = [r["log_loss"] for r in api["results"]]
    assert [r["log_loss"] for r in got["results"]] == pytest.approx(wanted, rel=1e-12)
