"""One tokenizer on every engine: the same tokens from multilingual text (combining marks,
superscripts, fractions, CJK, emoji, right-to-left scripts, Turkish dotted I, Greek final sigma,
German ß, ligatures, digits of other scripts) on DuckDB, SQLite, PostgreSQL, Spark and ClickHouse.
"""

from __future__ import annotations

import unicodedata

import duckdb
import pandas as pd
import pytest
import re2
from sqlglot import exp

import sqlnb
from sqlnb import unicode
from sqlnb.inputs import Docs
from sqlnb.tokenizer import DEFAULT_PATTERN, Tokenizer

TEXTS = [
    "İstanbul'da IŞIK ılık",
    "ΟΔΥΣΣΕΥΣ Οδυσσεύς σοφός",
    "STRASSE Straße ẞ groß",
    "ﬁnance ﬂow Æther œuvre",
    "E = mc² and 1024² and x₂ h₂o ½ ¾ Ⅻ",
    "日本語のテキスト 中文 한국어",
    "I ❤️ pizza 🍕 👍🏽 ok",
    "مرحبًا بالعالم الْعَرَبِيَّة",
    "שָׁלוֹם עולם",
    "हिन्दी भाषा",
    "ภาษาไทย สวัสดี",
    "٣٤٥ ۱۲۳ १२३ ๑๒๓ ١٠",
    "café cafe\u0301 naïve",
    "it's o'clock rock'n'roll 'quoted'",
]
# Letters, marks and digits: words of scripts with combining marks stay whole.
MARKS = r"[\pL\pM\pN]+(?:'[\pL\pM\pN]+)*"
ENGINES = [
    pytest.param(name, marks=getattr(pytest.mark, name))
    for name in ("sqlite", "postgres", "spark", "clickhouse")
]


def tokens(db: sqlnb.Database, tokenizer: Tokenizer) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for doc, word, _ in db.fetch(tokenizer.tokens(Docs("docs"), db, grouped=False)):
        found.setdefault(int(doc), []).append(word)
    return {doc: sorted(words) for doc, words in found.items()}


def duckdb_tokens(tokenizer: Tokenizer) -> dict[int, list[str]]:
    con = duckdb.connect()
    con.register("frame", pd.DataFrame({"doc_id": range(len(TEXTS)), "text": TEXTS}))
    con.execute("CREATE TABLE docs AS SELECT * FROM frame")
    return tokens(sqlnb.connect(con), tokenizer)


def test_the_tokens_of_the_default_pattern_and_of_letters_marks_and_digits():
    got = duckdb_tokens(Tokenizer())
    assert got[0] == ["istanbul'da", "işik", "ılık"]  # İ lowercased alone: i
    assert got[1] == ["οδυσσευσ", "οδυσσεύς", "σοφός"]  # Σ lowercased alone: σ
    assert got[2] == ["groß", "strasse", "straße", "ß"]
    assert got[3] == ["æther", "œuvre", "ﬁnance", "ﬂow"]
    assert got[4] == ["1024²", "and", "and", "e", "h₂o", "mc²", "x₂", "½", "¾", "ⅻ"]
    assert got[5] == ["中文", "日本語のテキスト", "한국어"]
    assert got[6] == ["i", "ok", "pizza"]
    assert got[9] == ["द", "न", "भ", "ष", "ह"]  # marks split words, as scikit-learn's \w
    assert got[11] == ["١٠", "٣٤٥", "۱۲۳", "१२३", "๑๒๓"]
    assert got[12] == ["cafe", "café", "naïve"]
    marks = duckdb_tokens(Tokenizer(pattern=MARKS))
    assert marks[7] == ["الْعَرَبِيَّة", "بالعالم", "مرحبًا"]
    assert marks[8] == ["עולם", "שָׁלוֹם"]
    assert marks[9] == ["भाषा", "हिन्दी"]
    assert marks[10] == ["ภาษาไทย", "สวัสดี"]
    assert marks[12] == sorted(["café", "cafe\u0301", "naïve"])


@pytest.fixture(params=ENGINES)
def engine(request):
    """Each engine other than DuckDB, in a fresh namespace, marked with its name."""
    from engines import open_engine

    yield from open_engine(request.param)


def test_every_engine_gives_duckdbs_tokens(engine):
    engine.load("docs", pd.DataFrame({"doc_id": range(len(TEXTS)), "text": TEXTS}))
    for tokenizer in (
        Tokenizer(),
        Tokenizer(pattern=MARKS),
        Tokenizer(lowercase=False),
        Tokenizer(ngrams=(1, 2)),
    ):
        assert tokens(engine.db, tokenizer) == duckdb_tokens(tokenizer), tokenizer


@pytest.mark.clickhouse
def test_clickhouse_functions_tokenize_as_duckdb():
    """ClickHouse's sqlnb_classify tokenizes with the list form (Tokenizer.words)."""
    from engines import open_engine

    for engine in open_engine("clickhouse"):
        for tokenizer in (Tokenizer(), Tokenizer(pattern=MARKS)):
            for text in TEXTS:
                query = exp.select(tokenizer.words(exp.convert(text), "clickhouse").as_("w"))
                ((got,),) = engine.db.fetch(query)
                want = duckdb.sql(exp.select(tokenizer.words(exp.convert(text))).sql("duckdb"))
                assert list(got) == want.fetchall()[0][0], text


def cased() -> list[str]:
    return [
        chr(c)
        for c in range(0x110000)
        if not 0xD800 <= c < 0xE000
        and (chr(c).lower() != chr(c) or unicodedata.category(chr(c)) in ("Lu", "Lt"))
    ]


def test_sqlites_lowercase_is_duckdbs_for_every_cased_character():
    letters = cased()
    con = duckdb.connect()
    con.register("frame", pd.DataFrame({"c": letters}))
    theirs = dict(con.execute("SELECT c, lower(c) FROM frame").fetchall())
    differ = [c for c in letters if unicode.lowered(c) != theirs[c]]
    assert differ == []
    assert "İ".lower() != "i" and "ΑΣ".lower() == "ας"  # what unicode.lowered corrects
    assert unicode.lowered("İΑΣ") == "iασ"


def test_the_expanded_classes_read_as_re2s():
    """Every character RE2 and sqlnb's table both know is in \\pL/\\pM/\\pN alike: the
    written-out pattern (PostgreSQL's) matches what the \\p pattern matches."""
    known = [
        chr(c)
        for c in range(0x110000)
        if not 0xD800 <= c < 0xE000 and unicodedata.category(chr(c)) != "Cn"
    ]
    text = " ".join(known[::3])  # a third of them: each pattern then takes a few seconds
    for pattern in (DEFAULT_PATTERN, MARKS):
        assert re2.findall(unicode.expanded(pattern), text) == re2.findall(pattern, text)
    assert unicode.expanded(r"[[:alpha:]\pN]x").startswith("[[:alpha:]0-9²")
    assert unicode.expanded(r"\\pL[\]\pN]") == r"\\pL[\]" + unicode._items("N") + "]"


def test_the_shipped_table_agrees_with_pythons_unicode():
    """The shipped categories (Unicode 15.0) are Python's for every character Python's
    Unicode assigns, and hold DuckDB's 137,935 letters and digits."""
    assert unicode.version() == "15.0.0"
    table = {k: unicode._ranges()[k] for k in unicode.CATEGORIES}
    members = {k: {c for a, b in table[k] for c in range(a, b + 1)} for k in table}
    for point in range(0x110000):
        category = unicodedata.category(chr(point))
        if category != "Cn":
            for k in table:
                assert (point in members[k]) == (category[0] == k), hex(point)
    assert len(members["L"]) + len(members["N"]) == 137935
