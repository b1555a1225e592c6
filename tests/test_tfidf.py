"""Document transforms (TF-IDF) of the multinomial and complement kinds: equal to scikit-learn's
TfidfTransformer feeding MultinomialNB / ComplementNB, on every path (predict, explain, the
SQL functions), and appending where the counts allow it."""

from __future__ import annotations

import itertools

import cli
import duckdb
import numpy as np
import pytest
from conftest import random_corpus
from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer
from sklearn.naive_bayes import ComplementNB, MultinomialNB
from test_multinomial import proba_matrix

import sqlnb
from sqlnb.errors import SqlnbError

COMBOS = [
    (sub, idf, norm)
    for sub, idf, norm in itertools.product(
        (False, True), ("none", "smooth", "plain"), ("none", "l1", "l2")
    )
    if sub or idf != "none" or norm != "none"
]


def reference(kind: str, sub: bool, idf: str, norm: str, alpha: float = 1.0):
    transformer = TfidfTransformer(
        norm=None if norm == "none" else norm,
        use_idf=idf != "none",
        smooth_idf=idf == "smooth",
        sublinear_tf=sub,
    )
    nb = MultinomialNB(alpha=alpha) if kind == "multinomial" else ComplementNB(alpha=alpha)
    return transformer, nb


@pytest.mark.parametrize("kind", ["multinomial", "complement"])
@pytest.mark.parametrize("sub,idf,norm", COMBOS)
def test_parity_with_scikit_learn_pipelines(con, kind, sub, idf, norm):
    corpus = random_corpus(3 + len(kind), n_classes=4, vocab=300, n_train=120, n_test=50)
    corpus.load(con)
    model = sqlnb.train(
        con,
        "train_tokens",
        "train_labels",
        kind=kind,
        alpha=0.5,
        sublinear_tf=sub,
        idf=idf,
        doc_norm=norm,
    )
    X, y, X_test, docs = corpus.matrices()
    transformer, nb = reference(kind, sub, idf, norm, alpha=0.5)
    nb.fit(transformer.fit_transform(X), y)
    expected = nb.predict_log_proba(transformer.transform(X_test))
    got = proba_matrix(model, docs, list(nb.classes_), "test_tokens")
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)
    # explain: a document's contributions add up to log P(label) - log P(runner-up)
    first = np.sort(expected[0])[::-1]
    shares = model.explain("test_tokens", doc=str(docs[0])).fetchall()
    assert sum(s for _, _, s in shares) == pytest.approx(first[0] - first[1], abs=1e-9)


TEXTS = [
    ("the cat sat on the mat with the other cat", "pets"),
    ("a dog and a cat and a dog again", "pets"),
    ("my dog likes the park and the cat", "pets"),
    ("stocks fell as the market fell again", "money"),
    ("the market rallied and stocks rose", "money"),
    ("bonds and stocks and more stocks", "money"),
    ("rain and wind and more rain today", "weather"),
    ("sunny today with wind later", "weather"),
    ("the forecast says rain rain rain", "weather"),
]
TESTS = ["the cat and the dog", "stocks rain", "wind wind market", "unknown words only", "cat"]


@pytest.mark.parametrize("kind", ["multinomial", "complement"])
@pytest.mark.parametrize(
    "sub,idf,norm", [(True, "smooth", "l2"), (False, "plain", "l1"), (False, "smooth", "none")]
)
def test_text_functions_and_predict_agree_with_scikit_learn(tmp_path, kind, sub, idf, norm):
    """A model trained from raw text with a transform: `sqlnb predict --docs` and DuckDB's
    sqlnb_classify / sqlnb_proba, each on its own connection, equal scikit-learn's pipeline."""
    path = tmp_path / "t.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE docs (doc_id INTEGER, text VARCHAR, label VARCHAR)")
    con.executemany(
        "INSERT INTO docs VALUES (?, ?, ?)", [(i, *pair) for i, pair in enumerate(TEXTS)]
    )
    con.execute("CREATE TABLE new_docs (doc_id INTEGER, text VARCHAR)")
    con.executemany("INSERT INTO new_docs VALUES (?, ?)", list(enumerate(TESTS)))
    con.close()
    flags = ["--sublinear-tf"] if sub else []
    flags += ["--idf", idf, "--doc-norm", norm]
    cli.run("train", path, "--docs", "docs", "--kind", kind, "--model", "m", *flags, ok=True)
    cli.run(
        "predict", path, "--docs", "new_docs", "--model", "m", "--output", "out", "--proba", ok=True
    )

    vectorizer = CountVectorizer(token_pattern=r"(?u)\b\w+\b", lowercase=True)
    X = vectorizer.fit_transform([t for t, _ in TEXTS])
    y = [label for _, label in TEXTS]
    transformer, nb = reference(kind, sub, idf, norm)
    nb.fit(transformer.fit_transform(X), y)
    expected = nb.predict_proba(transformer.transform(vectorizer.transform(TESTS)))

    con = duckdb.connect(str(path))
    predicted = {(r[0], r[1]): r[3] for r in con.execute("SELECT * FROM out").fetchall()}
    functions = con.execute(
        "SELECT doc_id, sqlnb_classify('m', text), sqlnb_proba('m', text) "
        "FROM new_docs ORDER BY doc_id"
    ).fetchall()
    con.close()
    classes = list(nb.classes_)
    for doc_id, label, proba in functions:
        best = int(np.argmax(expected[doc_id]))
        assert label == classes[best], TESTS[doc_id]
        assert proba == pytest.approx(expected[doc_id][best], abs=1e-9)
        for j, c in enumerate(classes):  # predict --proba: every class's probability
            assert predicted[doc_id, c] == pytest.approx(expected[doc_id][j], abs=1e-9)


@pytest.mark.slow  # 10 s in CI (issue 36: out of the quick loop, still in CI)
def test_append_adds_counts_where_it_can_and_refuses_where_it_cannot(con):
    corpus = random_corpus(11, n_classes=3, vocab=200, n_train=90, n_test=30)
    corpus.load(con)
    con.execute("CREATE TABLE first_labels AS SELECT * FROM train_labels WHERE doc_id % 3 <> 0")
    con.execute("CREATE TABLE more_labels AS SELECT * FROM train_labels WHERE doc_id % 3 = 0")
    _, y, _, docs = corpus.matrices()
    for sub, idf, norm in [
        (True, "smooth", "none"),
        (False, "none", "l2"),
        (True, "plain", "none"),
    ]:
        hyper = {"sublinear_tf": sub, "idf": idf, "doc_norm": norm}
        whole = sqlnb.train(con, "train_tokens", "train_labels", model="whole", **hyper)
        part = sqlnb.train(con, "train_tokens", "first_labels", model="part", **hyper)
        part = sqlnb.append(con, "train_tokens", "more_labels", model="part")
        classes = sorted(set(y))
        a = proba_matrix(whole, docs, classes, "test_tokens")
        b = proba_matrix(part, docs, classes, "test_tokens")
        np.testing.assert_allclose(b, a, rtol=0, atol=1e-9)
    sqlnb.train(con, "train_tokens", "first_labels", model="normed", idf="smooth", doc_norm="l2")
    before = con.execute(
        "SELECT COUNT(*), SUM(count) FROM sqlnb_word_counts WHERE model = 'normed'"
    ).fetchall()
    with pytest.raises(SqlnbError, match="appending would need the old documents again"):
        sqlnb.append(con, "train_tokens", "more_labels", model="normed")
    after = con.execute(
        "SELECT COUNT(*), SUM(count) FROM sqlnb_word_counts WHERE model = 'normed'"
    ).fetchall()
    assert after == before


def test_transforms_are_not_retuned_and_are_checked(con):
    corpus = random_corpus(5, n_classes=2, vocab=50, n_train=20, n_test=5)
    corpus.load(con)
    with pytest.raises(SqlnbError, match="idf must be one of none, smooth, plain, not 'log'"):
        sqlnb.train(con, "train_tokens", "train_labels", idf="log")
    with pytest.raises(SqlnbError, match="kind 'bernoulli' does not use --doc-norm"):
        sqlnb.train(con, "train_tokens", "train_labels", kind="bernoulli", doc_norm="l2")
    sqlnb.train(con, "train_tokens", "train_labels", model="m", idf="smooth")
    with pytest.raises(SqlnbError, match="--idf shaped model 'm'"):
        sqlnb.retune(con, model="m", idf="plain")


def test_model_files_carry_the_document_frequencies(con, tmp_path):
    """A transformed model moves whole through a model file; a file written before
    sqlnb_doc_freq existed still imports an untransformed model, and a transformed model whose
    file lacks it is refused."""
    from sqlnb.engine import Database
    from sqlnb.files import export_model, import_model

    corpus = random_corpus(8, n_classes=3, vocab=100, n_train=60, n_test=20)
    corpus.load(con)
    _, y, _, docs = corpus.matrices()
    classes = sorted(set(y))
    db = Database.connect(con)
    for model, hyper in (("t", {"idf": "smooth", "doc_norm": "l2"}), ("u", {})):
        trained = sqlnb.train(con, "train_tokens", "train_labels", model=model, **hyper)
        expected = proba_matrix(trained, docs, classes, "test_tokens")
        export_model(db, model, tmp_path / model)
        (tmp_path / model / "sqlnb_doc_freq.parquet").unlink()
        if hyper:
            with pytest.raises(SqlnbError, match="document frequencies"):
                import_model(db, tmp_path / model, "copy")
            export_model(db, model, tmp_path / model, replace=True)
        import_model(db, tmp_path / model, "copy")
        got = proba_matrix(sqlnb.load(con, "copy"), docs, classes, "test_tokens")
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", ["multinomial", "complement"])
@pytest.mark.parametrize(
    "weights,sub,idf,norm",
    [
        ("balanced", True, "smooth", "l2"),
        ({"class 01": 4.0, "class 02": 0.5}, False, "plain", "none"),
    ],
)
def test_class_weights_leave_the_idf_unweighted(con, kind, weights, sub, idf, norm):
    """The idf counts each training document once, as TfidfTransformer (which takes no sample
    weights) in a pipeline whose Naive Bayes is fitted with the class weights."""
    from sklearn.utils.class_weight import compute_sample_weight

    corpus = random_corpus(11, n_classes=3, vocab=200, n_train=150, n_test=40)
    corpus.load(con)
    model = sqlnb.train(
        con,
        "train_tokens",
        "train_labels",
        kind=kind,
        alpha=0.5,
        class_weight=weights,
        sublinear_tf=sub,
        idf=idf,
        doc_norm=norm,
    )
    X, y, X_test, docs = corpus.matrices()
    transformer, nb = reference(kind, sub, idf, norm, alpha=0.5)
    nb.fit(transformer.fit_transform(X), y, sample_weight=compute_sample_weight(weights, y))
    expected = nb.predict_log_proba(transformer.transform(X_test))
    got = proba_matrix(model, docs, list(nb.classes_), "test_tokens")
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)


def test_the_linear_form_of_an_idf_model_gives_its_log_odds(con):
    """weights: sum(count * weight) + bias = log P(1 | d) - log P(0 | d) for a model whose
    transform is its idf alone; a nonlinear transform has no linear form (one line)."""
    corpus = random_corpus(13, n_classes=2, vocab=150, n_train=100, n_test=30)
    corpus.load(con)
    model = sqlnb.train(con, "train_tokens", "train_labels", idf="smooth", model="i")
    weights = dict(con.execute(model.weights_query().sql("duckdb")).fetchall())
    _, y, _, docs = corpus.matrices()
    logp = proba_matrix(model, docs, sorted(set(y)), "test_tokens")
    tokens = con.execute("SELECT doc_id, word, count FROM test_tokens").fetchall()
    linear = {d: weights["(bias)"] for d in docs}
    for d, w, c in tokens:
        linear[d] += c * weights.get(w, 0.0)
    got = np.array([linear[d] for d in docs])
    np.testing.assert_allclose(got, logp[:, 1] - logp[:, 0], rtol=0, atol=1e-9)
    sqlnb.train(con, "train_tokens", "train_labels", sublinear_tf=True, model="s")
    with pytest.raises(SqlnbError, match="has no linear form"):
        sqlnb.load(con, "s").weights_query()
