"""Parity with scikit-learn on real corpora (../shared/data, or any folder of the same layout).

    python benchmarks/parity.py [DATA_DIR]

For each text corpus (docs.parquet with a train/test split, tokens.parquet) trains sqlnb in
DuckDB and scikit-learn's MultinomialNB on the same training vocabulary, and prints the test
accuracy of both, whether the labels are identical, and the largest log-probability difference.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import duckdb
import numpy as np
import scipy.sparse as sp
from sklearn.naive_bayes import BernoulliNB, CategoricalNB, ComplementNB, MultinomialNB
from sklearn.preprocessing import OrdinalEncoder

import sqlnb

KINDS = {"multinomial": MultinomialNB, "bernoulli": BernoulliNB, "complement": ComplementNB}


def corpus_tables(con: duckdb.DuckDBPyConnection, folder: Path) -> None:
    docs, tokens = folder / "docs.parquet", folder / "tokens.parquet"
    for split in ("train", "test"):
        con.execute(
            f"CREATE OR REPLACE TABLE {split}_labels AS SELECT doc_id, label "
            f"FROM read_parquet('{docs}') WHERE split = '{split}'"
        )
        con.execute(
            f"CREATE OR REPLACE TABLE {split}_tokens AS SELECT t.* FROM read_parquet('{tokens}') t "
            f"JOIN {split}_labels USING (doc_id)"
        )


def matrices(con: duckdb.DuckDBPyConnection):
    vocab = [
        r[0] for r in con.execute("SELECT DISTINCT word FROM train_tokens ORDER BY 1").fetchall()
    ]
    index = {w: i for i, w in enumerate(vocab)}

    def build(split: str):
        docs = [
            r[0] for r in con.execute(f"SELECT doc_id FROM {split}_labels ORDER BY 1").fetchall()
        ]
        row = {d: i for i, d in enumerate(docs)}
        t = con.execute(f"SELECT doc_id, word, count FROM {split}_tokens").fetchall()
        t = [(d, w, c) for d, w, c in t if w in index]
        m = sp.csr_matrix(
            ([c for _, _, c in t], ([row[d] for d, _, _ in t], [index[w] for _, w, _ in t])),
            shape=(len(docs), len(vocab)),
            dtype=float,
        )
        labels = dict(con.execute(f"SELECT doc_id, label FROM {split}_labels").fetchall())
        return m, np.array([labels[d] for d in docs], dtype=object), docs

    return build("train"), build("test")


def main(data: Path) -> int:
    worst = 0.0
    for folder in sorted(p for p in data.iterdir() if (p / "tokens.parquet").exists()):
        con = duckdb.connect()
        corpus_tables(con, folder)
        (X, y, _), (X_test, y_test, test_docs) = matrices(con)
        for kind, estimator in KINDS.items():
            start = time.perf_counter()
            model = sqlnb.train(con, "train_tokens", "train_labels", model=kind, kind=kind)
            rows = model.predict_log_proba("test_tokens").fetchall()
            seconds = time.perf_counter() - start
            reference = estimator().fit(X, y)
            expected = reference.predict_log_proba(X_test)
            col = {c: j for j, c in enumerate(reference.classes_)}
            row = {d: i for i, d in enumerate(test_docs)}
            got = np.full_like(expected, np.nan)
            for d, label, lp in rows:
                got[row[d], col[label]] = -np.inf if lp is None else lp
            diff = float(np.max(np.abs(got - expected)))
            ours = dict((d, label) for d, label, _ in model.predict("test_tokens").fetchall())
            same = all(ours[d] == p for d, p in zip(test_docs, reference.predict(X_test)))
            accuracy = np.mean([ours[d] == t for d, t in zip(test_docs, y_test)])
            print(
                f"{folder.name:12} {kind:12} accuracy sqlnb {accuracy:.4f} sklearn "
                f"{reference.score(X_test, y_test):.4f}  labels identical: {same}  "
                f"max |log-proba diff| {diff:.2e}  ({seconds:.2f} s)"
            )
            worst = max(worst, diff) if same else float("inf")
    for folder in sorted(p for p in data.iterdir() if (p / "docs.parquet").exists()):
        worst = max(worst, text_pipeline(folder))
    votes = data / "house_votes84" / "rows.parquet"
    if votes.exists():
        worst = max(worst, categorical(votes))
    return 0 if worst <= 1e-9 else 1


def text_pipeline(folder: Path) -> float:
    """Raw text: sqlnb's SQL tokenizer (default pattern, unigrams and bigrams with english stop
    words) against CountVectorizer with the same settings, then MultinomialNB."""
    from sklearn.feature_extraction.text import CountVectorizer

    con = duckdb.connect()
    docs = folder / "docs.parquet"
    for split in ("train", "test"):
        con.execute(
            f"CREATE TABLE {split} AS SELECT doc_id, text, label "
            f"FROM read_parquet('{docs}') WHERE split = '{split}'"
        )
    train, test = (
        con.execute(f"SELECT * FROM {s} ORDER BY doc_id").df() for s in ("train", "test")
    )
    worst = 0.0
    for ngrams, stop in (((1, 1), None), ((1, 2), "english")):
        start = time.perf_counter()
        tokenizer = sqlnb.Tokenizer(
            ngrams=ngrams, stop_words=sqlnb.stop_words.ENGLISH if stop else ()
        )
        model = sqlnb.train(con, sqlnb.Docs("train"), tokenizer=tokenizer)
        rows = model.predict_log_proba(sqlnb.Docs("test")).fetchall()
        seconds = time.perf_counter() - start
        vectorizer = CountVectorizer(
            token_pattern=r"[^\W_]+(?:'[^\W_]+)*", ngram_range=ngrams, stop_words=stop
        )
        reference = MultinomialNB().fit(vectorizer.fit_transform(train["text"]), train["label"])
        X_test = vectorizer.transform(test["text"])
        expected = reference.predict_log_proba(X_test)
        col = {c: j for j, c in enumerate(reference.classes_)}
        row = {d: i for i, d in enumerate(test["doc_id"])}
        got = np.full_like(expected, np.nan)
        for d, label, lp in rows:
            got[row[d], col[label]] = lp
        diff = float(np.max(np.abs(got - expected)))
        same_vocab = model.info["n_features"] == len(vectorizer.vocabulary_)
        accuracy = model.evaluate(sqlnb.Docs("test"))["accuracy"]
        print(
            f"{folder.name:12} {'text ' + '-'.join(map(str, ngrams)):12} accuracy sqlnb "
            f"{accuracy:.4f} sklearn {reference.score(X_test, test['label']):.4f}  same "
            f"vocabulary ({len(vectorizer.vocabulary_)}): {same_vocab}  max |log-proba diff| "
            f"{diff:.2e}  ({seconds:.2f} s)"
        )
        worst = max(worst, diff if same_vocab else float("inf"))
    return worst


def categorical(rows: Path) -> float:
    """CategoricalNB with missing votes as an extra category (like for like), and sqlnb's own
    treatment of NULL as missing (marginalised), on the house_votes84 split."""
    con = duckdb.connect()
    votes = [f"V{i}" for i in range(1, 17)]
    filled = ", ".join(f"coalesce({v}, 'missing') AS {v}" for v in votes)
    con.execute(f"CREATE TABLE raw AS SELECT * FROM read_parquet('{rows}')")
    for split in ("train", "test"):
        con.execute(
            f"CREATE TABLE {split} AS SELECT row_id, label, {filled} FROM raw "
            f"WHERE split = '{split}'"
        )
        con.execute(
            f"CREATE TABLE {split}_nulls AS SELECT row_id, label, {', '.join(votes)} "
            f"FROM raw WHERE split = '{split}'"
        )
    train, test = (
        con.execute("SELECT * FROM train ORDER BY row_id").df(),
        con.execute("SELECT * FROM test ORDER BY row_id").df(),
    )
    encoder = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1).fit(train[votes])
    reference = CategoricalNB().fit(encoder.transform(train[votes]), train["label"])
    expected = reference.predict_log_proba(encoder.transform(test[votes]))
    model = sqlnb.train(con, sqlnb.Table("train", id="row_id"), kind="categorical")
    col = {c: j for j, c in enumerate(reference.classes_)}
    row = {d: i for i, d in enumerate(test["row_id"])}
    got = np.full_like(expected, np.nan)
    for d, label, lp in model.predict_log_proba(sqlnb.Table("test", id="row_id")).fetchall():
        got[row[d], col[label]] = lp
    diff = float(np.max(np.abs(got - expected)))
    ours = dict(
        (d, label) for d, label, _ in model.predict(sqlnb.Table("test", id="row_id")).fetchall()
    )
    predicted = [ours[d] for d in test["row_id"]]
    same = predicted == list(reference.predict(encoder.transform(test[votes])))
    accuracy = np.mean(np.array(predicted) == test["label"].to_numpy())
    print(
        f"{'house_votes':12} {'categorical':12} accuracy sqlnb {accuracy:.4f} sklearn "
        f"{reference.score(encoder.transform(test[votes]), test['label']):.4f}  labels "
        f"identical: {same}  max |log-proba diff| {diff:.2e}  (missing = a category)"
    )
    nulls = sqlnb.train(
        con, sqlnb.Table("train_nulls", id="row_id"), kind="categorical", model="nulls"
    )
    result = nulls.evaluate(sqlnb.Table("test_nulls", id="row_id"))
    print(
        f"{'house_votes':12} {'categorical':12} accuracy sqlnb {result['accuracy']:.4f} "
        "with NULL votes marginalised"
    )
    return diff if same else float("inf")


if __name__ == "__main__":
    default = Path(__file__).resolve().parents[2] / "shared" / "data"
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else default))
