"""Multi-label classification: a label mode on the one scoring form.

``train --multi-label`` (:mod:`sqlnb.multilabel.counting`) trains one binary Naive Bayes per
label, "label" against "not label", as scikit-learn's ``OneVsRestClassifier`` around the
kind's estimator on ``MultiLabelBinarizer`` targets. It stores one count table: the counts
per label (every document counted under each of its labels) and, as class -1, the totals over
the documents (and their number, under a NULL word). The counts of "not label" are the totals
minus the label's, so the weights derived into the usual tables (``sqlnb_scoring``,
``sqlnb_base``) are each label's log odds: the shared joint log-likelihood of a (document,
label) is then the label's log odds, and this mode's posterior (``sql/multilabel/posterior.sql``)
is its logistic function, where the flat mode's is the log-sum-exp over the classes.
predict keeps the labels at or above a threshold (stored with the model, default 0.5);
evaluate gives the multi-label metrics (:mod:`sqlnb.multilabel.metrics`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import settings, templates
from sqlnb.errors import SqlnbError
from sqlnb.inputs import type_family

if TYPE_CHECKING:
    from sqlnb.catalog import Entry
    from sqlnb.engine import Database

MODE = "multi_label"  # the params' key of a multi-label model


def of(entry: Entry) -> bool:
    """Whether ``entry`` is a multi-label model."""
    return marked(entry.params)


def marked(params: dict[str, Any]) -> bool:
    """Whether a model's stored ``params`` are a multi-label model's: the one place Python
    reads the mark (SQL reads it in ``sql/multilabel/modes.sql``, :func:`modes`)."""
    return bool(params.get(MODE))


def modes() -> exp.Select:
    """(model, threshold) of every model in the catalog: a multi-label model's stored
    threshold, NULL for another (``sql/multilabel/modes.sql``)."""
    return templates.select("multilabel/modes.sql")


def checked(threshold: float | None) -> float:
    """A threshold between 0 and 1 (the default where None)."""
    value = settings.THRESHOLD.given(threshold)
    if value > 1:
        raise settings.THRESHOLD.refuse(value, settings.THRESHOLD.message)
    return float(value)


def given(multi_label: bool, threshold: float | None) -> dict[str, Any]:
    """The command line's settings of a training: ``{"threshold": T}`` for a multi-label one,
    none for a flat one (refused if a threshold is given)."""
    if not multi_label:
        if threshold is not None:
            raise SqlnbError("--threshold goes with --multi-label (several labels per document)")
        return {}
    return {"threshold": checked(threshold)}


def threshold_for(entry: Entry, threshold: float | None) -> float:
    """The threshold of a prediction of ``entry``: ``threshold``, else the stored one."""
    return checked(threshold if threshold is not None else entry.params.get("threshold"))


def logistic(v: exp.Expr) -> dict[str, exp.Expr]:
    """The binary posterior step (``sql/multilabel/logistic.sql``) of the log odds ``v``: its
    ``proba`` and ``log_proba``; every form (rows, DuckDB's lists, ClickHouse's arrays) takes it."""
    return templates.expressions("multilabel/logistic.sql", v=v)


def posterior(jll: str) -> exp.Select:
    """Every (document, label)'s binary probability from the relation ``jll`` (log odds)."""
    step = logistic(exp.column("jll", "j"))
    return templates.select("multilabel/posterior.sql", jll=exp.to_table(jll), **step)


def step(
    threshold: exp.Expr,
    labels: exp.Expr,
    top: exp.Expr,
    chosen: Mapping[str, exp.Expr],
    empty: exp.Expr | None = None,
) -> dict[str, exp.Expr]:
    """The multi-label step of the scoring form (``sql/multilabel/listed.sql``), which each
    engine form binds: for a model with a ``threshold`` (NULL for none) its ``labels`` at it
    and its largest binary probability ``top``; for another its ``chosen`` label as a list of
    one and its proba. ``empty`` is the empty list (default: of VARCHAR)."""
    if empty is None:
        empty = exp.cast(
            exp.Array(expressions=[]),
            exp.DataType.build("VARCHAR[]", dialect=templates.SOURCE_DIALECT),
        )
    return templates.expressions(
        "multilabel/listed.sql",
        threshold=threshold,
        labels=labels,
        top=top,
        label=chosen["label"],
        proba=chosen["proba"],
        empty=empty,
    )


def at_threshold(jll: exp.Expr, classes: exp.Expr, threshold: exp.Expr) -> dict[str, exp.Expr]:
    """The list form's ``labels`` and ``top`` for :func:`step` (``sql/multilabel/lists.sql``):
    of the list of log odds ``jll`` (in class order), the ``classes`` whose binary probability
    is at or above ``threshold`` and the largest probability."""
    return templates.expressions(
        "multilabel/lists.sql",
        jll=jll,
        classes=classes,
        threshold=threshold,
        logistic=logistic(exp.column("v"))["proba"],
    )


def listed(
    row: exp.Expr, jll: exp.Expr, chosen: dict[str, exp.Expr], model: exp.Expr
) -> dict[str, exp.Expr]:
    """DuckDB's sqlnb_classify and sqlnb_proba in a database with a multi-label model: over the
    lookup row ``row`` (l: :mod:`sqlnb.functions.lists`) and its list of log odds ``jll``, at
    the threshold the model ``model`` stores (m: ``sql/multilabel/modes.sql``), the labels and
    largest probability (:func:`at_threshold`) and the ``chosen`` flat label and proba, each
    computed once, then the step every form binds (:func:`step`), as the rows form does."""
    threshold = templates.col("threshold", "m")
    found = at_threshold(jll, templates.col("labels", "l"), threshold)
    mine = (
        exp.select(templates.col("threshold", "g").as_("threshold"))
        .from_(modes().subquery("g"))
        .where(templates.col("model", "g").eq(model))
    )
    parts = {"threshold": threshold.copy(), **chosen, **found}
    scored = (
        exp.select(*(value.as_(c) for c, value in parts.items()))
        .from_(row)
        .join(mine.subquery("m"), on=exp.true(), join_type="LEFT")
    )
    s = {c: templates.col(c, "s") for c in parts}
    mode = step(s["threshold"], s["labels"], s["top"], s)
    query = exp.select(*(value.as_(c) for c, value in mode.items())).from_(scored.subquery("s"))
    return {c: exp.select(c).from_(query.subquery("u")).subquery() for c in ("label", "proba")}


def list_type(db: Database, label_type: str) -> exp.DataType:
    """The type of a multi-label model's labels as one value: the engine's list of the label
    type (DuckDB's ``VARCHAR[]``, PostgreSQL's ``TEXT[]``), or where the engine has no list
    type (``Dialect.label_lists``: SQLite) the text of a JSON array."""
    if db.dialect.label_lists is None:
        raise SqlnbError(
            f"{db.dialect.name} cannot hold a multi-label model's labels as one value yet: "
            "use sqlnb predict (a row per label)"
        )
    if db.dialect.label_lists == "json":
        return exp.DataType.build("VARCHAR")
    kind = exp.DataType.Type.ARRAY
    return exp.DataType(this=kind, expressions=[element(label_type)], nested=True)


def element(label_type: str) -> exp.DataType:
    """A label's type in a list: the training labels' (text if sqlglot cannot spell it)."""
    if type_family(label_type) != "text":
        with contextlib.suppress(Exception):
            return exp.DataType.build(label_type, dialect=templates.SOURCE_DIALECT)
    return exp.DataType.build("VARCHAR")


def check_column(
    model: str, table: str, column: str, existing: str | None, wanted: exp.DataType
) -> None:
    """Refuse to write a multi-label model's labels into an existing column of another type
    than ``wanted`` (:func:`list_type`; an engine without column types has none to check)."""
    if not existing:
        return
    try:
        found = exp.DataType.build(existing, dialect=templates.SOURCE_DIALECT)
    except Exception:
        found = None
    if found is None or found.sql(templates.SOURCE_DIALECT) != wanted.sql(templates.SOURCE_DIALECT):
        raise SqlnbError(
            f"column {column!r} of table {table!r} is {existing}, not "
            f"{wanted.sql(templates.SOURCE_DIALECT)}: multi-label model {model!r} writes its "
            "labels as a list (drop the column or write another)"
        )


def refuse_flat(entry: Entry) -> None:
    """Refuse a flat model where only a multi-label one goes."""
    if not of(entry):
        raise SqlnbError(
            f"model {entry.name!r} has one label per document: --threshold is for a model "
            "trained with --multi-label"
        )


def refuse(entry: Entry | None, what: str) -> None:
    """Refuse ``what`` (a command or an option) for a multi-label model, in one line."""
    if entry is not None and of(entry):
        raise SqlnbError(
            f"model {entry.name!r} is multi-label (one binary classifier per label): {what} "
            "is not available for it"
        )


def final(
    entry: Entry,
    label: exp.Expr,
    posterior: str,
    *,
    proba: bool,
    threshold: float | None,
    model: exp.Expr,
    **options: Any,
) -> exp.Select:
    """predict's output of a multi-label model over its posterior relation ``posterior``: the
    (doc_id, label, proba) at or above the threshold, or with ``proba`` every label
    (doc_id, label, log_proba, proba). ``label`` is the stored label cast back to its type;
    ``options`` the prediction's others (priors and costs are refused)."""
    refuse_flat(entry)
    for option in ("priors", "costs"):
        if options.get(option) is not None:
            refuse(entry, f"--{option}")
    if proba:
        if threshold is not None:
            raise SqlnbError("--proba gives every label: --threshold does not go with it")
        return templates.select(
            "predict/proba.sql", posterior=exp.to_table(posterior), label=label, model=model
        )
    return templates.select(
        "multilabel/labels.sql",
        posterior=exp.to_table(posterior),
        label=label,
        model=model,
        threshold=templates.number(threshold_for(entry, threshold)),
    )
