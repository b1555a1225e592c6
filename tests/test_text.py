"""From raw text to labels inside the database: the SQL tokenizer against scikit-learn's
CountVectorizer, training and predicting from text, classifying in place, and the macros."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cli
import duckdb
import numpy as np
import pandas as pd
import pytest
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.naive_bayes import MultinomialNB

import sqlnb
from sqlnb.tokenizer import Docs, Tokenizer

# The default token pattern in Python's re syntax (for ASCII and Latin text alike).
PYTHON_PATTERN = r"[^\W_]+(?:'[^\W_]+)*"
WORDS = [
    "good",
    "bad",
    "Great",
    "awful",
    "it's",
    "don't",
    "café",
    "the",
    "and",
    "a",
    "is",
    "food",
    "Service",
    "x2",
    "déjà",
    "vu",
    "not",
    "very",
    "tasty",
    "cold",
]


def corpus(seed: int, n: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        label = ["pos", "neg", "mixed"][i % 3]
        bias = {"pos": [0, 2, 19], "neg": [1, 3, 18], "mixed": [4, 5, 6]}[label]
        words = [
            WORDS[j] if rng.random() > 0.3 else WORDS[rng.choice(bias)]
            for j in rng.integers(0, len(WORDS), rng.integers(0, 25))
        ]
        glue = rng.choice([" ", ", ", "! ", "  ", " -- "], size=len(words))
        rows.append((i, "".join(w + g for w, g in zip(words, glue)), label))
    return pd.DataFrame(rows, columns=["doc_id", "text", "label"])


def load(con, name: str, frame: pd.DataFrame) -> None:
    con.register("frame", frame)
    con.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")
    con.unregister("frame")


SETTINGS = [
    (dict(), dict()),
    (dict(ngrams=(1, 2)), dict(ngram_range=(1, 2))),
    (dict(ngrams=(2, 3), lowercase=False), dict(ngram_range=(2, 3), lowercase=False)),
    (dict(stop_words="english", ngrams=(1, 2)), dict(stop_words="english", ngram_range=(1, 2))),
    (dict(pattern=r"[a-z]{2,}"), dict(token_pattern=r"[a-z]{2,}")),
]


@pytest.mark.parametrize("ours,theirs", SETTINGS)
def test_token_counts_equal_count_vectorizer(con, ours, theirs):
    docs = corpus(1)
    load(con, "docs", docs)
    settings = dict(ours)
    if settings.pop("stop_words", None) == "english":
        settings["stop_words"] = sqlnb.stop_words.ENGLISH
    db = sqlnb.connect(con)
    query = Tokenizer(**settings).tokens(Docs("docs"), db)
    got = {(d, w): c for d, w, c in db.fetch(query)}
    vectorizer = CountVectorizer(**{"token_pattern": PYTHON_PATTERN, **theirs})
    X = vectorizer.fit_transform(docs["text"]).tocoo()
    words = vectorizer.get_feature_names_out()
    expected = {
        (int(docs["doc_id"][i]), words[j]): float(v) for i, j, v in zip(X.row, X.col, X.data)
    }
    assert got == expected


@pytest.mark.parametrize("ngrams", [(1, 1), (1, 2)])
def test_plain_texts_split_at_spaces_give_the_patterns_tokens(con, ngrams):
    """Texts of only letters, digits and spaces are split at their spaces (the default
    pattern's fast path): the same tokens as the regular expression and as CountVectorizer,
    with runs of spaces, spaces at either end, Unicode letters and digits."""
    texts = [
        "good food  great service",
        "  Déjà vu x2 CAFÉ ",
        "",
        " ",
        "a b  c   d",
        "naïve 42 ünïcödé 7x",
        "it's not plain, it has punctuation",
    ]
    docs = pd.DataFrame({"doc_id": range(len(texts)), "text": texts})
    load(con, "docs", docs)
    db = sqlnb.connect(con)
    fast = Tokenizer(ngrams=ngrams)
    same = Tokenizer(pattern="(?:" + Tokenizer().pattern + ")", ngrams=ngrams)  # no fast path
    got = sorted(db.fetch(fast.tokens(Docs("docs"), db)))
    assert got == sorted(db.fetch(same.tokens(Docs("docs"), db)))
    vectorizer = CountVectorizer(token_pattern=PYTHON_PATTERN, ngram_range=ngrams)
    X = vectorizer.fit_transform(docs["text"]).tocoo()
    words = vectorizer.get_feature_names_out()
    assert got == sorted((int(i), words[j], float(v)) for i, j, v in zip(X.row, X.col, X.data))


@pytest.mark.parametrize(
    "pruning,theirs",
    [
        (sqlnb.Pruning(min_df=3), dict(min_df=3)),
        (sqlnb.Pruning(max_df=0.5), dict(max_df=0.5)),
        (sqlnb.Pruning(min_df=0.05, max_df=40), dict(min_df=0.05, max_df=40)),
        (sqlnb.Pruning(max_features=7), dict(max_features=7)),
    ],
)
def test_text_pipeline_equals_count_vectorizer_and_multinomial_nb(con, pruning, theirs):
    docs = corpus(2)
    train, test = docs[docs.doc_id % 4 != 0], docs[docs.doc_id % 4 == 0]
    load(con, "train_docs", train)
    load(con, "test_docs", test)
    tokenizer = Tokenizer(ngrams=(1, 2))
    model = sqlnb.train(con, Docs("train_docs"), tokenizer=tokenizer, pruning=pruning)
    vectorizer = CountVectorizer(token_pattern=PYTHON_PATTERN, ngram_range=(1, 2), **theirs)
    reference = MultinomialNB().fit(vectorizer.fit_transform(train["text"]), train["label"])
    assert model.info["n_features"] == len(vectorizer.vocabulary_)
    expected = reference.predict_log_proba(vectorizer.transform(test["text"]))
    got = np.full_like(expected, np.nan)
    row = {d: i for i, d in enumerate(test["doc_id"])}
    col = {c: j for j, c in enumerate(reference.classes_)}
    for d, label, lp in model.predict_log_proba(Docs("test_docs")).fetchall():
        got[row[d], col[label]] = lp
    np.testing.assert_allclose(got, expected, atol=1e-9, rtol=0)
    ours = model.evaluate(Docs("test_docs"))
    assert ours["accuracy"] == pytest.approx(
        reference.score(vectorizer.transform(test["text"]), test["label"]), abs=1e-12
    )


def test_documents_without_tokens_get_the_prior(con):
    load(
        con,
        "docs",
        pd.DataFrame(
            {"doc_id": [1, 2, 3], "text": ["good good", "bad", "x"], "label": ["p", "n", "n"]}
        ),
    )
    load(con, "new", pd.DataFrame({"doc_id": [7, 8, 9], "text": ["", None, "!!! ..."]}))
    model = sqlnb.train(con, Docs("docs"))
    rows = model.predict(Docs("new")).fetchall()
    assert sorted(d for d, _, _ in rows) == [7, 8, 9]
    assert all(label == "n" and p == pytest.approx(2 / 3) for _, label, p in rows)


def test_tokenizer_settings_are_stored_with_the_model(con):
    load(con, "docs", corpus(3))
    con.execute("CREATE TABLE stops AS SELECT * FROM (VALUES ('good'), ('bad')) AS t(word)")
    db = sqlnb.connect(con)
    tokenizer = Tokenizer(
        lowercase=False, ngrams=(1, 2), stop_words=sqlnb.tokenizer.stop_word_list(db, "stops")
    )
    model = sqlnb.train(db, Docs("docs"), tokenizer=tokenizer, model="t")
    stored = sqlnb.load(con, "t").params["tokenizer"]
    assert Tokenizer.from_dict(stored) == tokenizer
    words = {r[0] for r in con.execute("SELECT word FROM sqlnb_log_theta").fetchall()}
    assert "good" not in words and "Great" in words and "great" not in words
    assert any(" " in w for w in words)
    assert model.predict(Docs("docs")).fetchall()


def test_classify_changes_only_the_named_columns(con):
    load(con, "docs", corpus(4))
    model = sqlnb.train(con, Docs("docs"), model="m")
    emails = corpus(5, n=50).rename(columns={"doc_id": "id", "text": "body"})
    emails["other"] = np.arange(50) * 1.5
    emails.loc[3, "body"] = None
    load(con, "emails", emails)
    before = con.execute("SELECT id, body, label, other FROM emails ORDER BY id").fetchall()
    n = model.classify(
        "emails", "id", Docs("emails", id="id", text="body"), "predicted", "confidence"
    )
    assert n == 50
    after = con.execute("SELECT id, body, label, other FROM emails ORDER BY id").fetchall()
    assert after == before
    got = dict(con.execute("SELECT id, predicted FROM emails").fetchall())
    expected = {
        d: label for d, label, _ in model.predict(Docs("emails", id="id", text="body")).fetchall()
    }
    assert got == expected
    # Again, from a tokens table: the columns are updated, not added twice.
    con.execute("CREATE TABLE toks AS SELECT 0 AS doc_id, 'bad' AS word, 5 AS count")
    model.classify("emails", "id", sqlnb.Tokens("toks"), "predicted")
    columns = [r[0] for r in con.execute("DESCRIBE emails").fetchall()]
    assert columns == ["id", "body", "label", "other", "predicted", "confidence"]
    assert con.execute("SELECT id, body, label, other FROM emails ORDER BY id").fetchall() == before


@pytest.mark.process
def test_macros_work_without_sqlnb(tmp_path: Path):
    """A process of its own: a Python without sqlnb imported runs the stored macros."""
    path = tmp_path / "m.duckdb"
    with duckdb.connect(str(path)) as con:
        load(con, "docs", corpus(6))
        load(con, "emails", corpus(7, n=40).rename(columns={"doc_id": "id", "text": "body"}))
        con.execute("CREATE TABLE toks AS SELECT 1 AS doc_id, 'good' AS word, 2 AS count")
        model = sqlnb.train(con, Docs("docs"), model="spam")
        sqlnb.train(
            con, Docs("docs"), model="bigrams", kind="bernoulli", tokenizer=Tokenizer(ngrams=(1, 2))
        )
        expected = {
            d: (label, p)
            for d, label, p in model.predict(Docs("emails", id="id", text="body")).fetchall()
        }
        expected_tokens = model.predict("toks").fetchall()
    script = f"""
import duckdb, json
con = duckdb.connect({str(path)!r}, read_only=True)
rows = con.execute(
    "SELECT id, sqlnb_classify('spam', body), sqlnb_proba('spam', body) FROM emails").fetchall()
table = con.execute("SELECT * FROM sqlnb_predict('spam', 'toks')").fetchall()
other = con.execute(
    "SELECT count(*) FROM emails WHERE sqlnb_classify('bigrams', body) IS NOT NULL").fetchone()[0]
print(json.dumps({{"rows": rows, "table": table, "other": other}}))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    result = json.loads(done.stdout)
    assert "import sqlnb" not in script and "sqlnb." not in script
    got = {d: (label, p) for d, label, p in result["rows"]}
    assert got.keys() == expected.keys()
    for d, (label, p) in expected.items():
        assert got[d][0] == label and got[d][1] == pytest.approx(p, abs=1e-12)
    assert [tuple(r) for r in result["table"]] == [tuple(r) for r in expected_tokens]
    assert result["other"] == 40


def test_text_commands(tmp_path: Path):
    path = tmp_path / "t.duckdb"
    with duckdb.connect(str(path)) as con:
        load(con, "reviews", corpus(8))
        load(con, "emails", corpus(9, n=30).rename(columns={"doc_id": "id", "text": "body"}))

    def run(*args: str) -> str:
        return cli.run(*args, ok=True).stdout

    run(
        "tokenize",
        str(path),
        "--docs",
        "reviews",
        "--output",
        "toks",
        "--ngrams",
        "1-2",
        "--stop-words",
        "english",
    )
    run(
        "train",
        str(path),
        "--docs",
        "reviews",
        "--model",
        "r",
        "--ngrams",
        "1-2",
        "--min-df",
        "2",
        "--max-features",
        "50",
    )
    run(
        "predict",
        str(path),
        "--model",
        "r",
        "--docs",
        "emails",
        "--id-column",
        "id",
        "--text-column",
        "body",
        "--output",
        "out",
    )
    run(
        "classify",
        str(path),
        "--model",
        "r",
        "--update",
        "emails",
        "--id-column",
        "id",
        "--text-column",
        "body",
        "--into",
        "predicted",
        "--proba-into",
        "confidence",
    )
    with duckdb.connect(str(path)) as con:
        assert con.execute("SELECT COUNT(*) FROM toks WHERE word LIKE '% %'").fetchone()[0] > 0
        assert con.execute("SELECT COUNT(*) FROM toks WHERE word = 'the'").fetchone()[0] == 0
        assert con.execute("SELECT n_features FROM sqlnb_models").fetchone()[0] == 50
        a = con.execute("SELECT doc_id, label FROM out ORDER BY 1").fetchall()
        b = con.execute("SELECT id, predicted FROM emails ORDER BY 1").fetchall()
        assert a == b and len(a) == 30


def test_stop_words_by_name_in_the_api():
    """``Tokenizer(stop_words="english")`` is scikit-learn's list, as the command line's
    ``--stop-words english`` (it was the letters e, n, g, l, i, s, h); another name is refused."""
    assert sqlnb.Tokenizer(stop_words="english") == sqlnb.Tokenizer(
        stop_words=sqlnb.stop_words.ENGLISH
    )
    assert "the" in sqlnb.Tokenizer(stop_words="english").stop_words
    assert sqlnb.Tokenizer(stop_words=["a", "b"]).stop_words == ("a", "b")
    with pytest.raises(sqlnb.SqlnbError, match="give 'english' or a list of words"):
        sqlnb.Tokenizer(stop_words="french")


@pytest.mark.parametrize("dialect", ["bigquery", "snowflake", "trino"])
def test_warehouse_scripts_tokenize_with_the_warehouses_functions(tmp_path, dialect):
    """A printed training and prediction from raw text tokenize with the warehouse's own
    functions (none of DuckDB's: REGEXP_FULL_MATCH, GENERATE_SUBSCRIPTS, STRING_SPLIT, list
    functions) and its own regular-expression syntax (Snowflake's POSIX classes); the model's
    DuckDB pattern is only in its stored settings. Every statement parses back."""
    import re as regex

    import sqlglot

    path = tmp_path / "w.duckdb"
    with duckdb.connect(str(path)) as con:
        con.register("d", corpus(3, n=40))
        con.execute("CREATE TABLE docs AS SELECT * FROM d")
    cli.run("train", path, "--docs", "docs", "--model", "m", ok=True)
    scripts = [
        cli.run("sql", *command, path, "--model", "m", "--dialect", dialect, *extra, ok=True).stdout
        for command, extra in (
            (["train"], ["--docs", "docs", "--ngrams", "1-2", "--stop-words", "english"]),
            (["predict"], ["--docs", "docs", "--output", "out"]),
        )
    ]
    for script in scripts:
        code = regex.sub(r"'(?:[^'\\]|\\.|'')*'", "''", script)  # string literals out
        for name in ("REGEXP_FULL_MATCH", "GENERATE_SUBSCRIPTS", "STRING_SPLIT", "LIST_"):
            assert name not in code.upper(), name
        assert "\\pL" not in code
        statements = sqlglot.parse(script, read=dialect)
        assert statements and all(s is not None for s in statements)
    functions = {"bigquery": "REGEXP_EXTRACT_ALL", "snowflake": "REGEXP_SUBSTR_ALL",
                 "trino": "REGEXP_EXTRACT_ALL"}  # fmt: skip
    assert all(functions[dialect] in s for s in scripts)
    if dialect == "snowflake":
        assert all("[[:alpha:][:digit:]]" in s for s in scripts)
