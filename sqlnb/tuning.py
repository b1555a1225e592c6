"""Choosing alpha by k-fold cross-validation in SQL, in a transaction that is rolled back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlglot import exp

from sqlnb import pipeline, templates, training
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.hyper import Hyperparameters
from sqlnb.inputs import Labels, Source, as_source, labels_for
from sqlnb.tokenizer import Tokenizer


class _Rollback(Exception):
    """Leaves a transaction whose work was only a means (cross-validation)."""


def tune(
    db: Any,
    data: str | Source = "tokens",
    labels: str | Labels | None = None,
    *,
    alphas: Sequence[float] = (0.01, 0.1, 0.5, 1.0),
    folds: int = 5,
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
    if db.dialect.name != "duckdb":
        raise SqlnbError("tune needs DuckDB (its folds use DuckDB's hash())")
    if folds < 2:
        raise SqlnbError("--folds must be at least 2")
    if not alphas:
        raise SqlnbError("give at least one alpha")
    source = as_source(data)
    normalized = labels_for(source, labels).query(db)
    scratch = "\x1ftune"
    scores: dict[float, list[tuple[float, float]]] = {a: [] for a in alphas}
    given = Hyperparameters(**hyperparameters).given()
    try:
        with db.transaction():
            for fold in range(folds):
                views = {test: _fold_view(db, normalized, folds, fold, test) for test in (0, 1)}
                first = Hyperparameters(**{**given, "alpha": alphas[0]})
                training.train(
                    db, source, views[0], model=scratch, kind=kind, hyper=first, tokenizer=tokenizer
                ).apply()
                for alpha in alphas:
                    entry = training.retune(db, scratch, Hyperparameters(alpha=alpha)).apply()
                    result = _evaluate(db, entry, source, views[1])
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


def _fold_view(db: Database, labels: exp.Select, folds: int, fold: int, test: int) -> Labels:
    """A temporary view of the labeled documents of one fold (``test``), or of every other."""
    name = f"sqlnb_tune_{'test' if test else 'train'}"
    query = templates.render(
        "tune/fold.sql", labels=labels.subquery("l"), folds=folds, fold=fold, test=bool(test)
    )
    db.execute(templates.render("catalog/drop_view.sql", view=exp.to_table(name)))
    db.execute(
        exp.Create(
            this=exp.to_table(name),
            kind="VIEW",
            expression=query,
            properties=exp.Properties(expressions=[exp.TemporaryProperty()]),
        )
    )
    return Labels(name, "doc_id", "label", "weight")


def _evaluate(db: Database, entry: Any, source: Source, labels: Labels) -> dict[str, Any]:
    create, (_, _, summary), drop = pipeline.evaluation(db, entry, source, labels)
    db.execute(drop)
    db.execute(create)
    try:
        return db.fetch_dicts(summary)[0]
    finally:
        db.execute(drop)
