"""``sqlnb demo``: the main job on the embedded default, on a small real corpus.

The corpus is 5,000 Amazon fine-food reviews (R package modeldata, ``small_fine_foods``, MIT),
bundled as ``sqlnb/data/fine_foods.parquet`` with the dataset's own train/test split.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import exp

import sqlnb
from sqlnb import templates
from sqlnb.engine import Database
from sqlnb.inputs import Docs, source_node
from sqlnb.stop_words import ENGLISH
from sqlnb.tokenizer import Tokenizer

DATA = Path(__file__).resolve().parent / "data" / "fine_foods.parquet"

SENTENCES = [
    "Absolutely delicious, my kids love these snacks and I will buy them again",
    "The package arrived stale and the taste was awful, a waste of money",
    "It is okay I guess, nothing special",
]


TOKENIZER = Tokenizer(stop_words=ENGLISH)
# The default token pattern in Python's re syntax, for scikit-learn's CountVectorizer.
PYTHON_PATTERN = r"[^\W_]+(?:'[^\W_]+)*"


def reference(db: Database) -> str:
    """scikit-learn's accuracy on the same split and words (CountVectorizer with the same
    pattern and stop words, MultinomialNB), computed here, if scikit-learn is installed."""
    try:
        from sklearn.feature_extraction.text import CountVectorizer
        from sklearn.naive_bayes import MultinomialNB
    except ImportError:
        return "scikit-learn is not installed, so no comparison"
    split = {
        name: db.fetch(sqlglot.parse_one(f"SELECT text, label FROM {name} ORDER BY doc_id"))
        for name in ("train_docs", "test_docs")
    }
    vectorizer = CountVectorizer(token_pattern=PYTHON_PATTERN, stop_words="english")
    train = vectorizer.fit_transform([text for text, _ in split["train_docs"]])
    classifier = MultinomialNB().fit(train, [label for _, label in split["train_docs"]])
    test = vectorizer.transform([text for text, _ in split["test_docs"]])
    accuracy = classifier.score(test, [label for _, label in split["test_docs"]])
    return f"scikit-learn on the same words: accuracy {accuracy:.4f}"


@dataclass
class Demo:
    """What the demo did, for the command line to show."""

    path: Path
    n_train: int
    n_test: int
    info: dict[str, Any]
    evaluation: dict[str, Any]
    reference: str
    query: str  # the ad-hoc SQL it ran
    classified: list[tuple[str, str, float]]  # (sentence, label, probability)
    top_words: dict[str, list[str]]  # the most indicative words by label
    seconds: float


def run(path: Path) -> Demo:
    """Build ``path`` from the bundled reviews, train, evaluate, predict and classify."""
    start = time.perf_counter()
    db = Database.connect(str(path), create=True)
    db.write_table("reviews", exp.select("*").from_(source_node(str(DATA))), replace=True)
    n_train, n_test = (
        db.write_table(
            f"{split}_docs",
            exp.select("doc_id", "text", "label")
            .from_(templates.table("reviews"))
            .where(exp.column("split").eq(exp.convert(split))),
            replace=True,
        )
        for split in ("train", "test")
    )
    model = sqlnb.train(db, Docs("train_docs"), model="reviews", tokenizer=TOKENIZER)
    evaluation = model.evaluate(Docs("test_docs"))
    model.predict_to(Docs("test_docs"), "test_predictions", replace=True)
    rows = exp.union(
        *(
            exp.select(exp.convert(i).as_("id"), exp.convert(text).as_("text"))
            for i, text in enumerate(SENTENCES, 1)
        ),
        distinct=False,
    )
    db.write_table("sentences", exp.select("*").from_(rows.subquery("s")), replace=True)
    query = (
        "SELECT text, sqlnb_classify('reviews', text), sqlnb_proba('reviews', text) "
        "FROM sentences ORDER BY id"
    )
    classified = [
        (t, lab, p)
        for t, lab, p in db.fetch(sqlglot.parse_one(query, read=templates.SOURCE_DIALECT))
    ]
    by_class: dict[str, list[str]] = {}
    for w in model.top_words(8):
        by_class.setdefault(w["label"], []).append(w["word"])
    demo = Demo(
        path,
        n_train,
        n_test,
        dict(model.info),
        evaluation,
        reference(db),
        query,
        classified,
        by_class,
        0.0,
    )
    db.close()
    demo.seconds = time.perf_counter() - start
    return demo
