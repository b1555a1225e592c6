"""What a training says of its classes besides the hyperparameters that declare it (in
:mod:`sqlnb.kinds.params`): class priors given and checked, how priors are derived, class
weights."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import templates
from sqlnb.errors import SqlnbError

if TYPE_CHECKING:
    from sqlnb.inputs import Survey


def parse_class_prior(
    text: str, what: str = "class prior", unit: str = "probability"
) -> dict[str, float]:
    """``'spam=0.3,ham=0.7'`` as a dict (``what`` it is and its ``unit``, for the messages).

    >>> parse_class_prior("spam=0.3, ham=0.7")
    {'spam': 0.3, 'ham': 0.7}
    """
    prior: dict[str, float] = {}
    for part in text.split(","):
        label, sep, value = part.strip().rpartition("=")
        if not sep or not label:
            raise SqlnbError(f"{what} {part.strip()!r} is not of the form label={unit}")
        if label in prior:
            raise SqlnbError(f"{what} names class {label!r} twice")
        try:
            prior[label] = float(value)
        except ValueError:
            raise SqlnbError(f"{what} of {label!r} is {value!r}, not a number") from None
    return prior


def check_class_prior(prior: dict[str, float] | None, labels: Sequence[str]) -> None:
    """A given class prior names every class, only those, and sums to 1."""
    if prior is None:
        return
    unknown = sorted(set(prior) - set(labels))
    if unknown:
        raise SqlnbError(f"class prior names unknown class {unknown[0]!r}")
    missing = [c for c in labels if c not in prior]
    if missing:
        raise SqlnbError(f"class prior does not name class {missing[0]!r}")
    for label, p in prior.items():
        if not 0 <= p <= 1:
            raise SqlnbError(f"class prior of {label!r} is {p}, not a probability")
    total = sum(prior.values())
    if abs(total - 1) > 1e-6:
        raise SqlnbError(f"class prior sums to {total:.9g}, not 1")


def class_weighted(
    labels: exp.Select, weights: str | dict[str, float] | None, values: Sequence[str]
) -> exp.Select:
    """The labeled documents (doc_id, label, weight) with each sample weight times its class's
    weight: ``'balanced'`` (n / (K n_k), scikit-learn's ``compute_sample_weight``) or one per
    label (a label not named weighs 1; one the labels lack is refused)."""
    if weights is None:
        return labels
    factor: exp.Expr
    if isinstance(weights, str):  # 'balanced', the only name Hyper.check lets through
        factor = exp.Div(
            this=exp.cast(exp.column("n", table="t"), "DOUBLE"),
            expression=exp.paren(
                exp.Mul(
                    this=exp.column("n_classes", table="t"),
                    expression=exp.column("n_k", table="k"),
                )
            ),
        )
    else:
        unknown = sorted(set(weights) - set(values))
        if unknown:
            raise SqlnbError(f"class weight names {unknown[0]!r}, not a label of the training data")
        text = exp.cast(exp.column("label", table="l"), "VARCHAR")
        factor = exp.Case(
            ifs=[
                exp.If(this=text.eq(exp.convert(k)), true=templates.number(w))
                for k, w in weights.items()
            ],
            default=templates.number(1.0),
        )
    return templates.select("train/class_weight.sql", labels=labels, factor=factor)


def check_weighed(
    db: Any,
    weighted: exp.Query,
    name: str,
    weights: Any,
    what: str,
    counted: tuple[int, int] | None = None,
) -> None:
    """Refuse weights that leave no document: every one of the labeled documents
    ``weighted`` (:func:`class_weighted`'s) of labels ``name`` weighs 0, its sample weight
    times its class's weight (``weights``, as given); ``what`` is the training in words ("train
    on", "append"). A class that weighs 0 while others weigh more is a class of 0 documents
    (README); a model of 0 documents has no prior to learn (0/0). ``counted``: the documents
    and those that weigh more than 0, where they are known already (not counted again)."""
    if counted is None:
        found = db.fetch_dicts(templates.render("check/weighed.sql", labels=weighted))[0]
        counted = (found["n_docs"], found["weighed"])
    if not counted[0] or counted[1]:
        return
    weighs = "has sample weight 0"
    if isinstance(weights, dict):
        given = ",".join(f"{k}={v:g}" for k, v in weights.items())
        weighs = f"weighs 0 with class weights {given!r} (times its sample weight)"
    raise SqlnbError(
        f"labels table {name!r}: every labeled document {weighs}: the weights leave no "
        f"document to {what}"
    )


def class_sizes(db: Any, labels: exp.Query) -> dict[str, int]:
    """The number of labeled documents of each label (each counted once: what 'balanced'
    weighs by)."""
    rows = db.fetch(
        exp.select(
            exp.cast(exp.column("label", "l"), "VARCHAR"),
            exp.func("COUNT", exp.Star()),
        )
        .from_(labels.subquery("l"))
        .group_by(exp.cast(exp.column("label", "l"), "VARCHAR"))
    )
    return {str(label): int(n) for label, n in rows}


def balanced(sizes: dict[str, int]) -> dict[str, float]:
    """scikit-learn's 'balanced' class weights n / (K n_k) of the class sizes n_k.

    >>> balanced({"a": 3, "b": 1})
    {'a': 0.6666666666666666, 'b': 2.0}
    """
    n, k = sum(sizes.values()), len(sizes)
    return {label: n / (k * size) for label, size in sizes.items()}


def prior_bindings(params: dict[str, Any]) -> tuple[exp.Expr, exp.Expr]:
    """The (weight, total) of sql/train/prior.sql: given priors are used as they are; learned
    ones are n_docs + prior_alpha, normalised; uniform ones 1, normalised."""
    label = exp.column("label", table="c")
    weight: exp.Expr
    if params["class_prior"] is not None:
        weight = exp.Case(
            ifs=[
                exp.If(this=label.eq(exp.convert(k)), true=templates.number(v))
                for k, v in params["class_prior"].items()
            ],
            default=templates.number(0.0),
        )
        return weight, templates.number(1.0)
    if params["fit_prior"]:
        weight = exp.Add(
            this=exp.column("n_docs", table="c"),
            expression=templates.number(params["prior_alpha"]),
        )
    else:
        weight = templates.number(1.0)
    return weight, exp.Window(this=exp.Sum(this=weight.copy()))


def known(survey: Survey, most: int) -> exp.Query | None:
    """The classes as ``survey`` read them (class_id, label as text, weight: the documents'
    summed sample weight), one row each of sql/train/known_class.sql; None above ``most``
    classes (the SQL would grow with them)."""
    if not survey.labels or len(survey.labels) > most:
        return None
    rows = [
        templates.select(
            "train/known_class.sql",
            class_id=exp.convert(i),
            label=exp.convert(label),
            weight=exp.convert(float(survey.weights[label])),
        )
        for i, label in enumerate(survey.labels)
    ]
    union: exp.Query = rows[0]
    for row in rows[1:]:
        union = exp.union(union, row, distinct=False)
    return union


def stored(model: str) -> exp.Select:
    """Model ``model``'s stored classes (class_id, label, n_docs), as the prior reads them."""
    return templates.select("train/stored_classes.sql", model=model)


def prior(model: str, params: dict[str, Any], known: exp.Query | None = None) -> exp.Expr:
    """The statement that derives ``model``'s prior (sql/train/prior.sql): from the classes
    ``known`` (:func:`known`'s rows) where given, else from its stored classes."""
    weight, total = prior_bindings(params)
    classes = stored(model)
    if known is not None:
        columns = {"class_id": "class_id", "label": "label", "weight": "n_docs"}
        selected = [exp.column(c, "k").as_(alias) for c, alias in columns.items()]
        classes = exp.select(*selected).from_(known.subquery("k"))
    return templates.render("train/prior.sql", model=model, weight=weight, total=total,
                            classes=classes)  # fmt: skip
