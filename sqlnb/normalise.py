"""The rules that turn a joint log-likelihood into a prediction, written once: the joint
log-likelihood of a (document, class), the log-sum-exp, the argmax and its tie rule; over rows
with window functions (:func:`posterior`), or, for predict's labels and evaluate's outcomes on an
engine with lists, in one aggregation (:func:`decided`, :func:`decided_outcomes`)."""

from __future__ import annotations

from sqlglot import exp

from sqlnb import templates

JLL = "sqlnb_jll"  # the relation (doc_id, class_id, jll) of a prediction's query (a CTE)


def normalised(jll: exp.Expr, top: exp.Expr, total: exp.Expr) -> dict[str, exp.Expr]:
    """The log-sum-exp step (``sql/predict/normalise.sql``) of a class's ``jll``: its ``term``
    of the document's sum and its ``proba``, given the document's ``top`` jll and ``total``."""
    return templates.expressions("predict/normalise.sql", jll=jll, top=top, total=total)


def joint(base: exp.Expr, n_zero: exp.Expr, score: exp.Expr) -> exp.Expr:
    """The joint log-likelihood of a (document, class) from its base, its number of factors
    of probability 0 and its parts' score: the rule of ``sql/predict/joint.sql``, which every
    form of the sum binds (over rows, a UNION ALL, lists)."""
    rule = templates.expressions("predict/joint.sql", base=base, n_zero=n_zero, score=score)
    return rule["jll"]


def joint_of(relation: str = "j") -> exp.Expr:
    """:func:`joint` of the columns base, n_zero and score of ``relation``."""
    return joint(*(templates.col(c, relation) for c in ("base", "n_zero", "score")))


def ranked(relation: str, value: str) -> exp.Expr:
    """The argmax and its tie rule (``sql/predict/argmax.sql``) over the rows of ``relation``
    (doc_id, class_id and ``value``): 1 for the predicted class of each document."""
    bindings = {"doc": "doc_id", "value": value, "class": "class_id"}
    cols = {k: templates.col(c, relation) for k, c in bindings.items()}
    return templates.expressions("predict/argmax.sql", **cols)["rn"]


def posterior() -> exp.Select:
    """The posterior of every (document, class) of the relation :data:`JLL`."""
    rows = normalised(*(templates.col(c, "b") for c in ("jll", "top", "total")))
    term = normalised(templates.col("jll", "a"), templates.col("top", "a"), exp.null())["term"]
    return templates.select(
        "predict/posterior.sql",
        jll=exp.to_table(JLL),
        term=term,
        proba=rows["proba"],
        rank=ranked("b", "jll"),
    )


def _list_sum(dialect: str, jlls: exp.Expr, term: exp.Expr) -> exp.Expr:
    """The sum of ``term`` (of the value ``v``) over the list ``jlls``
    (``sql/predict/list_sum.sql``, or the dialect's own)."""
    the_sum = templates.for_dialect("predict/list_sum.sql", dialect)
    return templates.expressions(the_sum, list=jlls, term=term)["total"]


def _total(dialect: str) -> exp.Expr:
    """A document's sum of terms exp(jll - top), over its list jlls (of relation d)."""
    term = normalised(exp.column("v"), templates.col("top", "d"), exp.null())["term"]
    return _list_sum(dialect, templates.col("jlls", "d"), term)


def decided(dialect: str) -> exp.Select:
    """The predicted class of every document of :data:`JLL` and its posterior (doc_id,
    class_id, proba, rn = 1) in one aggregation (``sql/predict/decided.sql``), on an engine
    whose dialect has lists."""
    top = templates.col("top", "t")
    proba = normalised(top, top.copy(), templates.col("total", "t"))["proba"]
    return templates.select(
        "predict/decided.sql", jll=exp.to_table(JLL), total=_total(dialect), proba=proba
    )


def decided_outcomes(dialect: str, truth: str, model: str) -> exp.Select:
    """evaluate's outcomes (``sql/evaluate/outcomes.sql``'s rows) of the documents of
    :data:`JLL` labeled by ``truth`` (doc_id, label), in one aggregation
    (``sql/evaluate/decided.sql``), on an engine whose dialect has lists."""
    top, total = templates.col("top", "t"), templates.col("total", "t")
    p = normalised(exp.column("v"), top, total)["proba"]
    square = templates.expressions("evaluate/square.sql", p=p)["square"]
    return templates.select(
        "evaluate/decided.sql",
        jll=exp.to_table(JLL),
        truth=exp.to_table(truth),
        model=model,
        total=_total(dialect),
        p_true=normalised(templates.col("true_jll", "t"), top, total)["proba"],
        confidence=normalised(top, top, total)["proba"],
        p_squares=_list_sum(dialect, templates.col("jlls", "t"), square),
    )
