"""Issue 35, point 7: what a new user hit, each by its command (in-process CLI calls)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import cli
import documentation
import duckdb
import pytest

import sqlnb
from sqlnb.report import charts

README = documentation.README
DOCS = [
    (1, "good food", "pos"),
    (2, "bad food", "neg"),
    (3, "good value", "pos"),
    (4, "awful bad", "neg"),
]


def run(*argv: str) -> tuple[int, str, str]:
    code, out, err = cli.run(*argv, env=None)  # in this process (tests/cli.py)
    return code, out, err


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "d.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE docs (doc_id INTEGER, text VARCHAR, label VARCHAR)")
        con.executemany("INSERT INTO docs VALUES (?, ?, ?)", DOCS)
    return str(path)


def tables(db: str) -> list[tuple]:
    with duckdb.connect(db, read_only=True) as con:
        return con.execute(
            "SELECT table_schema, table_name FROM information_schema.tables ORDER BY ALL"
        ).fetchall()


def test_a_missing_parquet_path_is_named(db: str, tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.parquet")
    code, _, err = run("train", db, "--docs", missing, "--model", "m")
    assert code == 1
    assert err == f"Error: Parquet file {missing!r} does not exist\n"
    code, _, err = run("train", db, "--tokens", missing, "--labels", "docs", "--model", "m")
    assert err == f"Error: Parquet file {missing!r} does not exist\n"


def test_an_output_in_a_schema_that_does_not_exist_is_one_line(db: str) -> None:
    assert run("train", db, "--docs", "docs", "--model", "m")[0] == 0
    before = tables(db)
    code, _, err = run("predict", db, "--model", "m", "--docs", "docs", "--output", "p_1.x")
    assert code == 1
    assert err == (
        "Error: schema 'p_1' does not exist: a name with a dot is schema.table (create the "
        "schema first, or choose a name without a dot)\n"
    )
    assert tables(db) == before
    with duckdb.connect(db) as con:  # schema-qualified names work where the schema exists
        con.execute("CREATE SCHEMA p_1")
    assert run("predict", db, "--model", "m", "--docs", "docs", "--output", "p_1.x")[0] == 0
    assert ("p_1", "x") in tables(db)


@pytest.mark.parametrize("name", ["", "  "])
def test_an_empty_model_name_is_refused(db: str, name: str) -> None:
    code, _, err = run("train", db, "--docs", "docs", "--model", name)
    assert (code, err) == (1, "Error: the model name is empty: give --model NAME\n")
    assert ("main", "sqlnb_models") not in tables(db)
    with duckdb.connect(db) as con, pytest.raises(sqlnb.SqlnbError, match="name is empty"):
        sqlnb.train(con, sqlnb.Docs("docs"), model=name)


def test_two_rows_of_one_document_are_refused(db: str) -> None:
    with duckdb.connect(db) as con:
        con.execute("CREATE TABLE dup AS SELECT * FROM docs UNION ALL SELECT 3, 'more', 'pos'")
    code, _, err = run("train", db, "--docs", "dup", "--model", "m")
    assert (code, err) == (
        1,
        "Error: docs table 'dup' has two rows for document 3: each row is a document, so its "
        "ids (column 'doc_id') must be unique\n",
    )
    assert ("main", "sqlnb_models") not in tables(db)


def test_null_labels_of_a_docs_table_name_the_docs_table(db: str) -> None:
    with duckdb.connect(db) as con:
        con.execute("CREATE TABLE nul AS SELECT * FROM docs UNION ALL SELECT 5, 'x y', NULL")
    code, _, err = run("train", db, "--docs", "nul", "--model", "m")
    assert (code, err) == (
        1,
        "Error: docs table 'nul' has 1 rows with a NULL label in column 'label'\n",
    )


def test_a_missing_doc_id_suggests_the_one_id_column(db: str) -> None:
    with duckdb.connect(db) as con:
        con.execute("CREATE TABLE by_id AS SELECT doc_id AS id, text, label FROM docs")
        con.execute("CREATE TABLE two AS SELECT doc_id AS id, doc_id AS review_id, text FROM docs")
    code, _, err = run("train", db, "--docs", "by_id", "--model", "m")
    assert (code, err) == (
        1,
        "Error: table 'by_id' has no document id column 'doc_id' (its columns: id, text, "
        "label): give --id-column id\n",
    )
    assert run("train", db, "--docs", "docs", "--model", "m")[0] == 0
    code, _, err = run("predict", db, "--model", "m", "--docs", "by_id", "--output", "o")
    assert err.endswith("(its columns: id, text, label): give --id-column id\n")
    code, _, err = run("predict", db, "--model", "m", "--docs", "two", "--output", "o")
    assert (
        err == "Error: table 'two' has no id column 'doc_id' (its columns: id, review_id, text)\n"
    )
    assert run("train", db, "--docs", "by_id", "--id-column", "id", "--model", "m2")[0] == 0


def test_classify_table_is_a_deprecated_alias_of_update(db: str) -> None:
    assert run("train", db, "--docs", "docs", "--model", "m")[0] == 0
    common = ["--into", "lab", "--text-column", "text", "--id-column", "doc_id", "--model", "m"]
    code, out, err = run("classify", db, "--table", "docs", *common)
    assert (code, out) == (0, "classified 4 rows of docs into lab\n")
    assert (
        err == "Deprecated: --table is now --update; --table will be removed in a later release\n"
    )
    with duckdb.connect(db, read_only=True) as con:
        assert con.execute("SELECT COUNT(*) FROM docs WHERE lab = label").fetchone()[0] == 4
    code, _, err = run("classify", db, "--table", "docs", "--update", "docs", *common)
    assert code == 2 and "--table is the old name of --update: give --update alone" in err
    assert "--table" not in run("classify", "-h")[1]  # hidden


def test_the_most_indicative_words_stand_out_against_the_other_classes(db: str) -> None:
    """Without stop words, 'the', 'of', 'a' are the most frequent words of every class; the
    most indicative are those likelier in a class than in the others: show, the report and
    the API give one list, each word scored log θ_kw − log(mean θ of the other classes)."""
    rows = []
    for i in range(30):
        c = ("sport", "money", "food")[i % 3]
        theme = {"sport": "goal match", "money": "bank loan", "food": "bread soup"}[c]
        extra = " the the the" if c == "sport" else ""  # 'the' likelier in sport
        rows.append((i, f"the the the of of a a {theme}{extra} the of", c))
    with duckdb.connect(db) as con:
        con.executemany("INSERT INTO docs VALUES (?, ?, ?)", [(100 + i, t, c) for i, t, c in rows])
        con.execute("DELETE FROM docs WHERE doc_id < 100")
    assert run("train", db, "--docs", "docs", "--model", "m")[0] == 0
    with duckdb.connect(db) as con:
        model = sqlnb.load(con, "m")
        words = model.top_words(2)
        theta = {
            (label, w): math.exp(lt)
            for label, w, lt in con.execute(
                "SELECT label, word, log_theta FROM sqlnb_log_theta WHERE model = 'm'"
            ).fetchall()
        }
    top = {
        label: [w["word"] for w in words if w["label"] == label] for label in theta_labels(theta)
    }
    assert top == {"food": ["bread", "soup"], "money": ["bank", "loan"], "sport": ["goal", "match"]}
    for w in words:  # the score by hand: the word's log ratio to the other classes' mean
        others = [theta[(c, w["word"])] for c in ("food", "money", "sport") if c != w["label"]]
        expected = math.log(theta[(w["label"], w["word"])]) - math.log(sum(others) / 2)
        assert math.isclose(w["score"], expected, rel_tol=1e-9)
    code, out, _ = run("show", db, "--model", "m", "--top", "2", "--json")
    assert code == 0 and '"the"' not in out and '"bread"' in out
    assert "the" not in [w["word"] for w in words]


def theta_labels(theta: dict[tuple[str, str], float]) -> list[str]:
    return sorted({label for label, _ in theta})


def test_the_readme_and_the_report_give_one_number_of_calibration_bins() -> None:
    text = documentation.everything()
    said = re.findall(r"reliability diagram \((\d+) bins", text)
    assert said == [str(charts.BINS)]
    assert f"bin ⌈{charts.BINS}p⌉" in text
    every = [
        {"bin": b, "n_docs": 1, "accuracy": 0.5, "confidence": (b - 0.5) / charts.BINS}
        for b in range(1, charts.BINS + 1)
    ]
    drawn = re.findall(
        r"confidence (\d\.\d{3})–(\d\.\d{3}): 1 documents", charts.reliability_diagram(every)
    )
    assert len(set(drawn)) == charts.BINS  # the report draws that many bins
    assert drawn[0] == ("0.000", f"{1 / charts.BINS:.3f}")
    sql = (README.parent / "sql" / "evaluate" / "reliability.sql").read_text()
    assert f"{charts.BINS}" in sql  # the bins the evaluation counts


def test_the_readme_lists_predict_docs_and_functions() -> None:
    usage = documentation.page("guides/usage.md").split("```", 2)[1]
    assert re.search(r"^sqlnb predict \S+ .*--docs ", usage, flags=re.M)
    assert re.search(r"^sqlnb functions ", usage, flags=re.M)
