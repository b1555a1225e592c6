"""Issue 34, point 8: ``features`` (chi2, mutual information) and ``train --select`` give on every
engine what they give on DuckDB (PostgreSQL refused the derived table sql/features/counts.sql
left without an alias), and no template leaves a derived table without one."""

from __future__ import annotations

import pytest
from conftest import random_corpus
from engines import open_engine
from sqlglot import exp

import sqlnb
from sqlnb import features, templates

ENGINES = [pytest.param(n, marks=getattr(pytest.mark, n)) for n in ("sqlite", "postgres", "spark")]
ENGINES.append(pytest.param("clickhouse", marks=pytest.mark.clickhouse))


@pytest.fixture(params=ENGINES)
def other(request):
    yield from open_engine(request.param)


@pytest.fixture
def duck():
    yield from open_engine("duckdb")


def _load(*engines) -> None:
    corpus = random_corpus(34, n_classes=3, vocab=60, n_train=50, n_test=10)
    for e in engines:
        e.load("tokens", corpus.train_tokens)
        e.load("labels", corpus.train_labels)


def _scores(db: sqlnb.Database, score: str) -> dict[str, tuple[float, ...]]:
    query, _ = features.word_scores(db, sqlnb.Tokens("tokens"), "labels", score=score)
    return {str(r[0]): tuple(map(float, r[1:])) for r in features.ranked(db, query, score, 3)}


def test_features_and_select_equal_duckdbs(other, duck):
    _load(other, duck)
    for score in features.SCORES:
        got, expected = _scores(other.db, score), _scores(duck.db, score)
        assert got.keys() == expected.keys() and len(got) == 60
        for word, values in expected.items():
            assert got[word] == pytest.approx(values, rel=1e-9, abs=1e-12), (score, word)
    for spec in ("chi2:7", "mutual-info:12"):
        words = []
        for e in (other, duck):
            sqlnb.train(e.db, "tokens", "labels", model="s", select=spec)
            query = exp.select("word").distinct().from_("sqlnb_word_counts")
            words.append(sorted(r[0] for r in e.db.fetch(query.where("model = 's'"))))
        assert words[0] == words[1] and len(words[0]) == int(spec.split(":")[1])


def test_a_derived_table_always_has_an_alias():
    """Every template names the tables its placeholders stand for (SQL_PORTABILITY rule 7), and
    a query bound where a template left one unnamed is named after the placeholder."""
    for name in templates.names():
        for node in templates.parsed(name).find_all(exp.Placeholder):
            parent = node.parent
            if isinstance(parent, exp.Table) and parent.this is node and not parent.alias:
                assert name.startswith("catalog/"), (name, node.name)  # DROP / DELETE of a table
    counts = templates.select(
        "features/counts.sql", tokens=exp.select("*").from_("t"), labels=exp.select("*").from_("l")
    )
    derived = [
        s for s in counts.find_all(exp.Subquery) if isinstance(s.parent, exp.From | exp.Join)
    ]
    assert derived and all(s.alias for s in derived)
    unnamed = exp.select("*").from_(exp.Table(this=exp.Placeholder(this="labels")))
    templates._bind(unnamed.find(exp.Placeholder), exp.select("*").from_("l"))
    assert unnamed.sql("postgres") == "SELECT * FROM (SELECT * FROM l) AS labels"
    bound = templates.render("catalog/drop_table.sql", table=exp.to_table("x"))
    assert bound.sql("postgres") == "DROP TABLE IF EXISTS x"
