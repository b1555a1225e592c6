"""Issue 34, point 7: ClickHouse's sqlnb_classify and sqlnb_proba (global to the server) answer
from the database they are called in, never from the one sqlnb wrote last: two databases each
with a model ``spam`` trained on different data, and a tokenizer only one of them has."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from engines import chdb_client, open_engine

import sqlnb

pytestmark = pytest.mark.clickhouse

WORDS = ["cheap pills now", "meeting at noon", "win money fast", "lunch with the team"]


def _docs(flip: bool) -> pd.DataFrame:
    rows = []
    for i in range(40):
        text = WORDS[i % 4] + f" w{i % 5}"
        spam = (i % 2 == 0) != flip
        rows.append((i, text, "spam" if spam else "ham"))
    return pd.DataFrame(rows, columns=["doc_id", "text", "label"])


def _answers(query: str) -> dict[int, tuple[str, float]]:
    return {d: (label, p) for d, label, p in chdb_client().query(query).result_rows}


def test_the_functions_answer_from_the_database_they_are_called_in():
    a_engine, b_engine = open_engine("clickhouse"), open_engine("clickhouse")
    a = next(a_engine)
    a.load("docs", _docs(flip=False))
    a_where = a.db.fetch_text("SELECT currentDatabase()")[0][0]
    bigrams = sqlnb.Tokenizer(ngrams=(1, 2))
    a_spam = sqlnb.train(a.db, sqlnb.Docs("docs"), model="spam")
    a_grams = sqlnb.train(a.db, sqlnb.Docs("docs"), model="grams", tokenizer=bigrams)
    b = next(b_engine)  # now current: trained last, with the default tokenizer only
    b.load("docs", _docs(flip=True))
    b_where = b.db.fetch_text("SELECT currentDatabase()")[0][0]
    b_spam = sqlnb.train(b.db, sqlnb.Docs("docs"), model="spam")
    client = chdb_client()
    try:
        for where, models in ((a_where, [a_spam, a_grams]), (b_where, [b_spam])):
            client.command(f"USE {where}")
            for model in models:
                expected = {d: (label, p) for d, label, p in model.predict(sqlnb.Docs("docs"))}
                got = _answers(
                    f"SELECT doc_id, sqlnb_classify('{model.name}', text), "
                    f"sqlnb_proba('{model.name}', text) FROM docs"
                )
                assert got.keys() == expected.keys() and len(got) == 40
                for d, (label, p) in expected.items():
                    assert got[d][0] == label, (where, model.name, d)
                    assert math.isclose(got[d][1], p, rel_tol=1e-9), (where, model.name, d)
        # the two databases' spam models disagree on every document
        client.command(f"USE {a_where}")
        in_a = _answers("SELECT doc_id, sqlnb_classify('spam', text), 0 FROM docs")
        client.command(f"USE {b_where}")
        in_b = _answers("SELECT doc_id, sqlnb_classify('spam', text), 0 FROM docs")
        assert all(in_a[d][0] != in_b[d][0] for d in in_a)
        with pytest.raises(Exception, match="no text model of that name"):
            client.query("SELECT sqlnb_classify('grams', 'cheap pills')")  # A's only
    finally:
        client.command(f"USE {b_where}")
        for engine in (b_engine, a_engine):
            for _ in engine:
                pass
