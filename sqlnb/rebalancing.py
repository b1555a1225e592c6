"""Appending to a model whose classes weigh 'balanced' (n / (K n_k)): its stored counts scaled
to the weights of the union of its documents and the batch's (:func:`sqlnb.training.append`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlglot import exp

from sqlnb import catalog, templates
from sqlnb.classes import balanced, class_sizes
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.kinds.base import ModelTable


def rebalanced(
    db: Database,
    model: str,
    params: dict[str, Any],
    labels: exp.Query,
    counts: Sequence[ModelTable],
) -> tuple[dict[str, float], list[exp.Expr], str]:
    """Appending to a 'balanced' model, whose weights n / (K n_k) depend on every training
    document's class: the union's weights by label, the statements that copy the model's
    counts to a scaled model (each class's weighted amounts times its new weight over its
    old: constant within a class, a weight scales them), and that model's name. The class
    sizes are updated in ``params``."""
    old = params.get("class_sizes")
    labels_of = {int(c["class_id"]): str(c["label"]) for c in catalog.classes(db, model)}
    if not (
        isinstance(old, dict)
        and set(old) == set(labels_of.values())
        and all(isinstance(n, int) and n > 0 for n in old.values())
    ):
        raise SqlnbError(
            f"model {model!r} weighs its classes 'balanced' but does not record its class "
            "sizes (an earlier sqlnb trained it): train it again on all its documents"
        )
    sizes = dict(old)
    for label, n in class_sizes(db, labels).items():
        sizes[label] = sizes.get(label, 0) + n
    before, after = balanced(old), balanced(sizes)
    params["class_sizes"] = sizes
    scaled = model + "\x1fscaled"
    factor = exp.Case(this=exp.column("class_id"))
    for class_id, label in sorted(labels_of.items()):
        factor = factor.when(exp.convert(class_id), templates.number(after[label] / before[label]))
    statements = catalog.deletes(scaled, counts)
    for table in counts:
        weighed = "class_id" in table.columns
        columns = [
            exp.Mul(this=exp.column(c), expression=factor.copy()).as_(c)
            if weighed and c in table.amounts
            else exp.column(c)
            for c in table.columns
        ]
        rows = (
            exp.select(exp.convert(scaled).as_("model"), *columns)
            .from_(table.node())
            .where(exp.column("model").eq(exp.convert(model)))
        )
        statements.append(exp.insert(rows, table.node(), columns=["model", *table.columns]))
    return after, statements, scaled
