"""Issue 38: the statements a PostgreSQL retraining runs. Each table a statement fills is
ANALYZEd in the same transaction (the next statements' plans, and predict's, need fresh
statistics), but not the catalog's, the versions' and the functions' record: small tables read
by a model's key or whole, whose plans do not depend on their statistics (7 ANALYZE before)."""

from __future__ import annotations

import pandas as pd
import pytest
from engines import open_engine
from test_training_statements import LABELS, TOKENS

import sqlnb


@pytest.mark.postgres
def test_a_retraining_analyzes_only_what_plans_read():
    opened = open_engine("postgres")
    engine = next(opened)
    try:
        engine.load("tokens", pd.DataFrame(TOKENS, columns=["doc_id", "word", "count"]))
        engine.load("labels", pd.DataFrame(LABELS, columns=["doc_id", "label"]))
        db = engine.db
        sqlnb.train(db, "tokens", "labels", model="m")
        first = sorted(map(tuple, sqlnb.load(db, "m").predict("tokens")))
        seen: list[str] = []
        db.timer = lambda text, _seconds: seen.append(" ".join(text.split()))
        sqlnb.train(db, "tokens", "labels", model="m")
        db.timer = None
        analyzed = [s.split(".")[-1].strip('"') for s in seen if s.startswith("ANALYZE")]
        assert sorted(analyzed) == [
            "sqlnb_base", "sqlnb_classes", "sqlnb_prior", "sqlnb_scoring", "sqlnb_word_counts"
        ]  # fmt: skip
        assert len(seen) <= 44  # 46 before
        assert sorted(map(tuple, sqlnb.load(db, "m").predict("tokens"))) == first
    finally:
        for _ in opened:  # the schema dropped
            pass
