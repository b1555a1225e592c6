"""Issues 35 (point 5) and 38: up to wide.BY_WORD classes the scoring table is derived from the
counts pivoted by word alone (a column per class, one GROUP BY), not by word and block. Both
derivations give the same rows, for every text kind, with partial blocks, sample weights and
weights of -infinity; above BY_WORD classes, and where the number of classes is not known (the
dbt package), the block form stays."""

from __future__ import annotations

import duckdb
import numpy as np
import pandas as pd
import pytest
from sqlglot import exp

import sqlnb
from sqlnb import catalog
from sqlnb.engine import Database
from sqlnb.kinds import wide


def _docs(n_classes: int, seed: int = 0) -> pd.DataFrame:
    """Documents of ``n_classes`` labels, words biased by label, a sample weight each."""
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(60)]
    rows = []
    for i in range(12 * n_classes):
        label = f"c{i % n_classes:03d}"
        bias = [words[(i % n_classes + k) % 60] for k in range(3)]
        n = int(rng.integers(1, 12))
        text = " ".join(str(rng.choice(bias if rng.random() < 0.5 else words)) for _ in range(n))
        rows.append((i, text, label, 0.5 + i % 3))
    return pd.DataFrame(rows, columns=["doc_id", "text", "label", "w"])


def _db(n_classes: int) -> Database:
    con = duckdb.connect()
    con.register("frame", _docs(n_classes))
    con.execute("CREATE TABLE docs AS SELECT * FROM frame")
    return Database.connect(con)


def _scoring(db: Database, model: str) -> list[tuple]:
    query = exp.select("word", "base", *(f"w{j}" for j in wide.SLOTS)).from_(wide.TABLE)
    return sorted(db.fetch(query.where(exp.column("model").eq(exp.convert(model)))), key=str)


def _derivation(db: Database, model: str, n_classes: int) -> exp.Expr:
    entry = catalog.entry(db, model)
    statements = entry.kind.derive(model, entry.params, n_classes)
    (insert,) = [s for s in statements if s.this.find(exp.Table).name == wide.TABLE]
    return insert


def _close(ours: list[tuple], theirs: list[tuple]) -> None:
    assert len(ours) == len(theirs) > 0
    for a, b in zip(ours, theirs):
        assert a[:2] == b[:2]
        for x, y in zip(a[2:], b[2:]):
            assert (x is None) == (y is None), (a, b)
            assert x is None or abs(x - y) <= 1e-12 * max(1.0, abs(x)), (a, b)


CASES = [
    ("multinomial", {}),
    ("multinomial", {"alpha": 0.0}),  # weights of -infinity (NULL)
    ("complement", {}),
    ("complement", {"norm": True}),  # a sum over the words of each class
    ("bernoulli", {}),
    ("bernoulli", {"alpha": 0.0}),
]


@pytest.mark.parametrize("n_classes", [2, 11, 17])
@pytest.mark.parametrize(("kind", "hyper"), CASES)
def test_by_word_gives_the_block_form_rows(kind, hyper, n_classes):
    db = _db(n_classes)
    sqlnb.train(db, sqlnb.Docs("docs", weight="w"), model="m", kind=kind, **hyper)
    by_word = _derivation(db, "m", n_classes).sql("duckdb")
    assert "% 8" not in by_word  # pivoted by word alone
    ours = _scoring(db, "m")
    (words,) = db.fetch(exp.select("COUNT(DISTINCT word)").from_("sqlnb_word_counts"))[0]
    assert len(ours) == words * (-(-n_classes // 8)) * (2 if kind == "bernoulli" else 1)
    db.execute(exp.delete(wide.TABLE, where=exp.column("model").eq(exp.convert("m"))))
    blocks = _derivation(db, "m", 0)
    assert "% 8" in blocks.sql("duckdb")  # the number of classes unknown: by word and block
    db.execute(blocks)
    _close(ours, _scoring(db, "m"))


def test_above_by_word_classes_the_block_form_stays():
    n_classes = wide.BY_WORD + 1
    db = _db(n_classes)
    sqlnb.train(db, sqlnb.Docs("docs"), model="m")
    assert "% 8" in _derivation(db, "m", n_classes).sql("duckdb")
    ours = _scoring(db, "m")
    db.execute(exp.delete(wide.TABLE, where=exp.column("model").eq(exp.convert("m"))))
    db.execute(wide.by_word("m", _families(db), _counts(), n_classes))
    _close(ours, _scoring(db, "m"))


def _families(db: Database) -> dict[str, wide.Weight]:
    entry = catalog.entry(db, "m")
    smoothing = entry.kind.smoothing(entry.params)
    return {
        prefix: (lambda b, name=name: wide.formula(name, {**b, **smoothing}))
        for prefix, name in entry.kind.weights.items()
    }


def _counts() -> exp.Query:
    return (
        exp.select("class_id", "word", "count")
        .from_("sqlnb_word_counts")
        .where(exp.column("model").eq(exp.convert("m")))
    )
