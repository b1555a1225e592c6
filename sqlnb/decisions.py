"""Decisions beyond the model's own posterior: new class priors and costs at prediction.

- New priors (Saerens, Latinne and Decaestecker 2002): p'(c|x) is proportional to
  p(c|x) pi'_c / pi_c, pi the training priors; given, or estimated on the documents being
  scored by EM (pi' <- the mean over the documents of p'(c|x), from pi' = pi, until the largest
  change is below 1e-9 or 1,000 rounds), each round one aggregate query
  (``sql/predict/priors.sql``).
- Costs: each document's label is the one of least expected cost
  sum_actual p(actual|x) cost(actual, label) (``sql/predict/costs.sql``), from a table
  (actual, predicted, cost) naming every pair of the model's classes, joined to the model's
  classes (``sql/predict/cost_pairs.sql``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import catalog, templates
from sqlnb.classes import check_class_prior, parse_class_prior
from sqlnb.errors import SqlnbError
from sqlnb.inputs import numbers, require, source_node

if TYPE_CHECKING:
    from sqlnb.catalog import Entry
    from sqlnb.engine import Database

ROUNDS, TOLERANCE = 1000, 1e-9


def training_priors(db: Database, entry: Entry) -> dict[int, float]:
    """The model's priors by class_id (0 where the prior is 0)."""
    return {
        int(c["class_id"]): 0.0 if c["log_prior"] is None else math.exp(c["log_prior"])
        for c in catalog.classes(db, entry.name)
    }


def given_priors(db: Database, entry: Entry, text: str | dict[str, float]) -> dict[int, float]:
    """Given new priors (``'spam=0.2,ham=0.8'``), checked, by class_id."""
    classes = catalog.classes(db, entry.name)
    labels = [str(c["label"]) for c in classes]
    if isinstance(text, str) and "=" not in text:
        raise SqlnbError(f"--priors takes 'estimate' or label=probability pairs, not {text!r}")
    try:
        priors = parse_class_prior(text) if isinstance(text, str) else dict(text)
        check_class_prior(priors, labels)
    except SqlnbError as error:
        raise SqlnbError(f"--priors: {str(error).removeprefix('class prior ')}") from None
    return {int(c["class_id"]): priors[str(c["label"])] for c in classes}


def weights(old: dict[int, float], new: dict[int, float]) -> dict[int, float]:
    """Per class the new prior over the training prior (0 where the training prior is 0)."""
    return {k: new[k] / old[k] if old[k] > 0 else 0.0 for k in old}


def weight_of(ratios: dict[int, float]) -> exp.Expr:
    """The CASE expression of a class's weight, over column s.class_id."""
    return exp.Case(
        ifs=[
            exp.If(this=templates.col("class_id", "s").eq(exp.convert(k)), true=templates.number(w))
            for k, w in ratios.items()
        ],
        default=templates.number(0.0),
    )


def estimate(
    db: Database, scored: exp.Table | exp.Query, old: dict[int, float]
) -> tuple[dict[int, float], int]:
    """The EM estimate of the priors of the documents in ``scored`` (doc_id, class_id,
    proba), and the number of rounds it took."""
    current = dict(old)
    for rounds in range(1, ROUNDS + 1):
        query = templates.render(
            "predict/priors.sql", scored=scored, weight=weight_of(weights(old, current))
        )
        found = {int(r["class_id"]): float(r["prior"] or 0) for r in db.fetch_dicts(query)}
        change = max(abs(found.get(k, 0.0) - current[k]) for k in current)
        current = {k: found.get(k, 0.0) for k in current}
        if change < TOLERANCE:
            return current, rounds
    return current, ROUNDS


def costs(db: Database, entry: Entry, table: str) -> exp.Query:
    """The cost table's rows as a relation (actual, predicted, cost) of class_ids, after
    checking it names every pair of the model's classes once, with finite costs >= 0."""
    node = source_node(table)
    columns = db.columns(node)
    require(table, columns, {"actual": "actual", "predicted": "predicted", "cost": "cost"})
    numbers(db, table, columns, "cost", "costs")
    rows = db.fetch(
        exp.select(
            exp.cast(exp.column("actual", quoted=True), "VARCHAR"),
            exp.cast(exp.column("predicted", quoted=True), "VARCHAR"),
            exp.cast(exp.column("cost", quoted=True), "DOUBLE"),
        ).from_(node)
    )
    ids = {str(c["label"]): int(c["class_id"]) for c in catalog.classes(db, entry.name)}
    found: dict[tuple[int, int], float] = {}
    for actual, predicted, cost in rows:
        for label in (actual, predicted):
            if label not in ids:
                raise SqlnbError(
                    f"cost table {table!r} names label {label!r}, which model {entry.name!r} "
                    "does not know"
                )
        if cost is None or not math.isfinite(cost) or cost < 0:
            raise SqlnbError(
                f"cost table {table!r}: the cost of predicting {predicted!r} for {actual!r} is "
                f"{'NULL' if cost is None else repr(cost)}, not a finite number >= 0"
            )
        pair = (ids[actual], ids[predicted])
        if pair in found:
            raise SqlnbError(
                f"cost table {table!r} gives two costs of predicting {predicted!r} for {actual!r}"
            )
        found[pair] = cost
    labels = sorted(ids, key=ids.__getitem__)
    for actual in labels:
        for predicted in labels:
            if (ids[actual], ids[predicted]) not in found:
                raise SqlnbError(
                    f"cost table {table!r} has no cost of predicting {predicted!r} for {actual!r}"
                )
    column = {c: templates.col(c, "k", quoted=True) for c in ("actual", "predicted", "cost")}
    return templates.select("predict/cost_pairs.sql", costs=node, model=entry.name, **column)


def describe(priors: dict[int, float], labels: dict[int, Any]) -> str:
    """Priors as 'label=p, ...' in class order."""
    return ", ".join(f"{labels[k]}={p:.6g}" for k, p in sorted(priors.items()))
