"""The rules that turn a joint log-likelihood into a prediction, written once: the joint
log-likelihood of a (document, class), the log-sum-exp, the argmax and its tie rule; over rows
with window functions (:func:`posterior`), or, for predict's labels on an engine with lists, in
one aggregation (:func:`decided`)."""

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


def decided(dialect: str) -> exp.Select:
    """The predicted class of every document of :data:`JLL` and its posterior (doc_id,
    class_id, proba, rn = 1) in one aggregation (``sql/predict/decided.sql``), on an engine
    whose dialect has lists."""
    term = normalised(exp.column("v"), templates.col("top", "d"), exp.null())["term"]
    the_sum = templates.for_dialect("predict/list_sum.sql", dialect)
    total = templates.expressions(the_sum, list=templates.col("jlls", "d"), term=term)["total"]
    top = templates.col("top", "t")
    proba = normalised(top, top.copy(), templates.col("total", "t"))["proba"]
    return templates.select("predict/decided.sql", jll=exp.to_table(JLL), total=total, proba=proba)
