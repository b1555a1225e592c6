"""``sqlnb demo``: the main job on the embedded default, on a small real corpus.

The corpus is 5,000 Amazon fine-food reviews (R package modeldata, ``small_fine_foods``, MIT),
bundled as ``sqlnb/data/fine_foods.parquet`` with the dataset's own train/test split.
"""

from __future__ import annotations

import time
from pathlib import Path

import duckdb
from rich.console import Console
from rich.table import Table
from sqlglot import exp

import sqlnb
from sqlnb import templates
from sqlnb.engine import Database

DATA = Path(__file__).resolve().parent / "data" / "fine_foods.parquet"

SENTENCES = [
    "Absolutely delicious, my kids love these snacks and I will buy them again",
    "The package arrived stale and the taste was awful, a waste of money",
    "It is okay I guess, nothing special",
]


def _tokenize(db: Database, docs: str, output: str) -> None:
    query = templates.render("demo/tokenize.sql", docs=templates.table(docs))
    db.execute(
        exp.Create(this=templates.table(output), kind="TABLE", expression=query, replace=True)
    )


def run(path: Path, console: Console) -> None:
    start = time.perf_counter()
    db = Database.connect(duckdb.connect(str(path)))
    db.path = str(path)
    con = db.connection
    con.execute("CREATE OR REPLACE TABLE reviews AS SELECT * FROM read_parquet(?)", [str(DATA)])
    for split in ("train", "test"):
        con.execute(
            f"CREATE OR REPLACE TABLE {split}_docs AS "
            f"SELECT doc_id, text, label FROM reviews WHERE split = '{split}'"
        )
        _tokenize(db, f"{split}_docs", f"{split}_tokens")
        con.execute(
            f"CREATE OR REPLACE TABLE {split}_labels AS SELECT doc_id, label FROM {split}_docs"
        )
    n_train, n_test = (
        con.execute(f"SELECT COUNT(*) FROM {s}_docs").fetchone()[0] for s in ("train", "test")
    )
    console.print(
        f"[bold]sqlnb demo[/bold] in {path}: {n_train} training and {n_test} test "
        "fine-food reviews (labels: great, other)"
    )

    model = sqlnb.train(db, "train_tokens", "train_labels", model="reviews")
    info = model.info
    console.print(
        f"trained multinomial model 'reviews': {int(info['n_docs'])} documents, "
        f"vocabulary of {info['n_features']} words"
    )

    result = model.evaluate("test_tokens", "test_labels")
    console.print(
        f"test split: accuracy {result['accuracy']:.4f}, macro-F1 "
        f"{result['macro_f1']:.4f}, log-loss {result['log_loss']:.4f} "
        "(scikit-learn's MultinomialNB: accuracy 0.8030)"
    )

    model.predict_to("test_tokens", "test_predictions", replace=True)

    con.execute("CREATE OR REPLACE TABLE sentences (doc_id INTEGER, text VARCHAR)")
    con.executemany("INSERT INTO sentences VALUES (?, ?)", list(enumerate(SENTENCES, 1)))
    _tokenize(db, "sentences", "sentence_tokens")
    predicted = {d: (label, p) for d, label, p in model.predict("sentence_tokens").fetchall()}
    table = Table("sentence", "label", "probability", title="classified sentences")
    for i, text in enumerate(SENTENCES, 1):
        label, p = predicted[i]
        table.add_row(text, label, f"{p:.3f}")
    console.print(table)

    words = Table("label", "most indicative words", title="what the model learned")
    by_class: dict[str, list[str]] = {}
    for w in model.top_words(8):
        by_class.setdefault(w["label"], []).append(w["word"])
    for label, ws in by_class.items():
        words.add_row(label, ", ".join(ws))
    console.print(words)

    console.print(
        "tables: reviews, train_docs/test_docs, train_tokens/test_tokens, "
        "train_labels/test_labels, test_predictions, sentences, sentence_tokens; the model: "
        "sqlnb_models, sqlnb_classes, sqlnb_word_counts, sqlnb_prior, sqlnb_log_theta"
    )
    console.print(
        f"done in {time.perf_counter() - start:.1f} s. Try: sqlnb show {path} --model reviews"
    )
    db.close()
