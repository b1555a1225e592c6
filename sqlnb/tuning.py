"""Choosing alpha by k-fold cross-validation in SQL, in a transaction that is rolled back.

The inputs are checked once and kept in temporary tables (the labeled documents with their
fold; a tokens source, or raw text tokenized once, as tokens), so each fold reads them, not
the sources. Each fold's training part is counted once; each alpha only derives the
parameters from those counts and scores the fold's own documents (kept apart once per fold).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlglot import exp

from sqlnb import catalog, pipeline, settings, templates, training
from sqlnb.engine import Database, scratch
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Docs, Labels, Source, Tokens, as_source, labels_for
from sqlnb.kinds import kind_for
from sqlnb.tokenizer import Tokenizer

LABELS, TOKENS, TEST = (scratch.name(f"sqlnb_tune_{n}") for n in ("labels", "tokens", "scored"))
SCRATCH = "\x1ftune"  # the model each fold trains, never committed


class _Rollback(Exception):
    """Leaves a transaction whose work was only a means (cross-validation)."""


def tune(
    db: Any,
    data: str | Source = "tokens",
    labels: str | Labels | None = None,
    *,
    alphas: Sequence[float] = settings.ALPHAS.default,
    folds: int = settings.FOLDS.default,
    kind: str | None = None,
    tokenizer: Tokenizer | None = None,
    **hyperparameters: Any,
) -> dict[str, Any]:
    """Choose alpha by k-fold cross-validation in SQL: folds by a hash of doc_id, each fold's
    vocabulary its training part's. Returns {"best_alpha", "results": [{"alpha", "accuracy",
    "log_loss"}]} with the means over folds; the best alpha has the highest mean accuracy
    (ties: the first given). ``hyperparameters`` other than alpha are fixed. The database is
    left as it was."""
    db = Database.connect(db)
    if not db.dialect.folds:
        raise SqlnbError("tune needs DuckDB (its folds use DuckDB's hash())")
    settings.FOLDS.check(folds)
    if not alphas:
        raise SqlnbError("give at least one alpha")
    source = as_source(data)
    the_kind = kind_for(kind, source)
    the_labels = labels_for(source, labels)
    first = {**{k: v for k, v in hyperparameters.items() if v is not None}, "alpha": alphas[0]}
    db.stage("checking the input")
    labeled = the_labels.query(db)
    the_labels.check(db, labeled)
    if isinstance(source, Tokens):
        source.check(db, source.query(db))
    scores: dict[float, list[tuple[float, float]]] = {a: [] for a in alphas}
    steps = folds * (1 + len(alphas))
    built: dict[Any, list[list[str]]] = {}  # the SQL of each alpha, the same in every fold
    try:
        with db.transaction():
            _keep(db, LABELS, templates.select("tune/folds.sql", labels=labeled, folds=folds))
            if isinstance(source, Docs):  # tokenized once
                _keep(db, TOKENS, (tokenizer or Tokenizer()).tokens(source, db))
                source = Tokens(TOKENS)
            elif isinstance(source, Tokens):  # read once
                _keep(db, TOKENS, source.query(db))
                source = Tokens(TOKENS)
            for fold in range(folds):
                done = fold * (1 + len(alphas))
                db.stage(f"fold {fold + 1}/{folds}: counting", done / steps)
                train, test = _split(db, fold)
                training.train(
                    db, source, train, model=SCRATCH, kind=the_kind.name, hyper=first, check=False
                ).apply(functions=False)
                scored = _apart(db, source, test)
                for i, alpha in enumerate(alphas, 1):
                    db.stage(f"fold {fold + 1}/{folds}, alpha {alpha:g}", (done + i) / steps)
                    result = _score(db, alpha, scored, test, built)
                    scores[alpha].append((result["accuracy"], result["log_loss"]))
            raise _Rollback
    except _Rollback:
        pass
    results = [
        {
            "alpha": a,
            "accuracy": sum(s[0] for s in scores[a]) / folds,
            "log_loss": sum(s[1] for s in scores[a]) / folds,
        }
        for a in alphas
    ]
    best = max(results, key=lambda r: r["accuracy"])  # max keeps the first of equals
    return {"best_alpha": best["alpha"], "results": results}


def _keep(db: Database, name: str, query: exp.Query) -> None:
    """A temporary table of ``query``'s rows (for the transaction, which is rolled back)."""
    db.temporary(name, query)


def _split(db: Database, fold: int) -> tuple[Labels, Labels]:
    """Temporary views of the labeled documents of every other fold (the fold's training part)
    and of the fold itself."""
    views = []
    for test in (False, True):
        name = scratch.name(f"sqlnb_tune_{'test' if test else 'train'}")
        query = templates.select("tune/fold.sql", labels=exp.to_table(LABELS), fold=fold, test=test)
        db.execute(
            exp.Create(
                this=exp.to_table(name),
                kind="VIEW",
                expression=query,
                replace=True,
                properties=exp.Properties(expressions=[exp.TemporaryProperty()]),
            )
        )
        views.append(Labels(name, "doc_id", "label", "weight"))
    return views[0], views[1]


def _apart(db: Database, source: Source, test: Labels) -> Source:
    """The tokens of the fold's documents kept apart: scoring the fold reads them, not every
    document's."""
    if not isinstance(source, Tokens):
        return source
    ids = exp.select("doc_id").from_(exp.to_table(test.name))
    rows = (
        exp.select("*")
        .from_(exp.to_table(source.table))
        .where(exp.column("doc_id").isin(query=ids))
    )
    _keep(db, TEST, rows)
    return Tokens(TEST)


def _score(
    db: Database, alpha: float, source: Source, labels: Labels, built: dict[Any, list[list[str]]]
) -> dict[str, Any]:
    """Retune the fold's model to ``alpha`` and evaluate it on the fold's documents. The SQL of
    both is the same in every fold (the same names: the scratch model, the fold's views and
    tables), so it is built once per alpha (and number of classes) and run as text after."""
    entry = catalog.entry(db, SCRATCH)
    key = (alpha, entry.n_classes)
    if key not in built:
        plan = training.retune(db, SCRATCH, {"alpha": alpha})
        built[key] = [[text for s in plan.statements for text in db.texts(s)]]
    with db.transaction():
        for text in built[key][0]:
            db.execute(text)
        training.finish(
            training.Training(db, SCRATCH, entry.kind, entry.params, []), functions=False
        )
    if alpha not in built:
        tuned = catalog.entry(db, SCRATCH)
        evaluated = pipeline.evaluation_pipeline(
            db, tuned, source, labels, guard=False, check=False
        )
        outcomes, (_, _, summary, _), drop = pipeline.evaluation(
            evaluated, tuned.name, db.dialect.name
        )
        built[alpha] = [db.texts(drop), db.texts(outcomes), [db.sql(summary)]]
    drop_texts, outcomes_texts, [summary_text] = built[alpha]
    for text in drop_texts + outcomes_texts:
        db.execute(text)
    try:
        names = ["n_docs", "accuracy", "macro_f1", "log_loss"]
        return dict(zip(names, db.fetch_text(summary_text)[0]))
    finally:
        for text in drop_texts:
            db.execute(text)
