"""Multi-label models on every engine against DuckDB (issue 39): the same training (tokens
and a labels table with several rows per document) gives the same probabilities of every
(document, label) to 1e-9, the same labels at the threshold and the same five metrics."""

from __future__ import annotations

import random
from collections import Counter

import pandas as pd
import pytest
from engines import ENGINES, open_engine

import sqlnb
from sqlnb import Labels, Tokens
from sqlnb.multilabel import metrics

TOPICS = {
    "billing": "invoice refund charge payment",
    "urgent": "asap now critical outage",
    "bug": "crash error fail broken",
    "feature": "add wish idea request",
}
NOISE = ["the", "a", "of", "please", "team"]


def frames(seed: int, n: int, start: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(tokens, labels): one to three labels per document, words of its labels and others."""
    rng = random.Random(seed)
    every = " ".join(TOPICS.values()).split()
    tokens, labels = [], []
    for doc_id in range(start, start + n):
        chosen = rng.sample(sorted(TOPICS), rng.choice([1, 2, 2, 3]))
        words = [rng.choice(TOPICS[t].split()) for t in chosen for _ in range(rng.randint(1, 2))]
        words += [rng.choice(every) for _ in range(rng.randint(0, 2))] + [rng.choice(NOISE)]
        tokens += [(doc_id, w, c) for w, c in Counter(words).items()]
        labels += [(doc_id, t) for t in chosen]
    return (
        pd.DataFrame(tokens, columns=["doc_id", "word", "count"]),
        pd.DataFrame(labels, columns=["doc_id", "label"]),
    )


def results(engine_name: str, kind: str) -> tuple[dict[tuple[int, str], float], dict[str, float]]:
    """Every (document, label)'s probability and the metrics, trained and scored on one engine."""
    done = None
    for engine in open_engine(engine_name):  # (run to its end: it then drops what it made)
        for name, seed, n, start in (("train", 1, 120, 0), ("test", 2, 60, 1000)):
            tokens, labels = frames(seed, n, start)
            engine.load(f"{name}_tokens", tokens)
            engine.load(f"{name}_labels", labels)
        m = sqlnb.train(engine.db, Tokens("train_tokens"), Labels("train_labels"), model="ml",
                        kind=kind, multi_label=True, threshold=0.4, alpha=0.5)  # fmt: skip
        query = m.prediction_query(Tokens("test_tokens"), proba=True)
        found = {(int(d), str(k)): float(p)
                 for d, k, _, p in engine.db.fetch(query)}  # fmt: skip
        scores = m.evaluate(Tokens("test_tokens"), Labels("test_labels"))
        done = found, {k: scores[k] for k in metrics.SUMMARY}
    assert done is not None
    return done


@pytest.mark.parametrize("kind", ["multinomial", "bernoulli"])
@pytest.mark.parametrize(
    "engine", [pytest.param(e, marks=getattr(pytest.mark, e)) for e in ENGINES if e != "duckdb"]
)
def test_every_engine_equals_duckdb(engine: str, kind: str) -> None:
    want, want_scores = results("duckdb", kind)
    got, got_scores = results(engine, kind)
    assert got.keys() == want.keys() and len(want) == 60 * len(TOPICS)
    assert max(abs(got[k] - want[k]) for k in want) < 1e-9
    assert got_scores == pytest.approx(want_scores, abs=1e-12)
    assert 0 < want_scores["subset_accuracy"] < 1
