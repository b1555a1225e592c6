"""Gaussian features read wide: one row per example, one column per feature.

The readable model is long (``sqlnb_gaussian_stats`` and ``sqlnb_gaussian``: a row per class
and feature), but unpivoting the input to (row, feature, value) multiplies its rows by the
number of features F, and scoring then joins each of those to every class. Here the rows stay
wide: training takes per-class sums of every column in two passes (``sql/gaussian/moments.sql``,
then ``m2.sql``: squared deviations from the class means), and scoring crosses each row with the
K classes' parameters, pivoted to one row per class, summing the F terms
(``sql/gaussian/term.sql``) as one expression. The formulas are the ``.sql`` files; the queries
that repeat them for every feature of the model (``params["features"]``) are built here as
syntax trees.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlglot import exp

from sqlnb import templates
from sqlnb.templates import col

STATS = ("model", "class_id", "feature", "n", "mean", "m2")


def _x(i: int) -> exp.Column:
    return col(f"x{i}", "x")


def rows(ids: exp.Expr, columns: Sequence[exp.Expr], source: exp.Expr) -> exp.Select:
    """The rows to train on or score: (doc_id, x0, ..., xF-1), the features as DOUBLE."""
    return exp.select(
        exp.alias_(ids, "doc_id"),
        *(exp.alias_(exp.cast(c, "DOUBLE"), f"x{i}") for i, c in enumerate(columns)),
    ).from_(source)


def non_finite(rows_query: exp.Query, n_features: int) -> exp.Select:
    """Per feature, the number of values that are NaN or infinite (they fail x * 0 = 0)."""
    zero = templates.number(0)

    def bad(i: int) -> exp.Expr:
        finite = exp.EQ(this=exp.Mul(this=_x(i), expression=zero.copy()), expression=zero.copy())
        return exp.Count(this=exp.Case().when(exp.Not(this=finite), exp.convert(1)))

    return exp.select(*(bad(i).as_(f"x{i}") for i in range(n_features))).from_(
        rows_query.subquery("x")
    )


def _with_labels(rows_query: exp.Query, labeled: exp.Expr) -> exp.Select:
    return (
        exp.select()
        .from_(rows_query.subquery("x"))
        .join(
            exp.Subquery(this=labeled.copy(), alias=exp.TableAlias(this=exp.to_identifier("l"))),
            on=col("doc_id", "l").eq(col("doc_id", "x")),
        )
    )


def _features(names: Sequence[str]) -> exp.Select | exp.Union:
    """(i, feature): the model's Gaussian features numbered as the columns x<i>."""
    selects = [
        exp.select(exp.convert(i).as_("i"), exp.convert(name).as_("feature"))
        for i, name in enumerate(names)
    ]
    return selects[0] if len(selects) == 1 else exp.union(*selects, distinct=False)


def moments(names: Sequence[str], rows_query: exp.Query, labeled: exp.Expr) -> exp.Select:
    """The Gaussian sufficient statistics (class_id, feature, n, mean, m2) of every (class,
    feature) with a value, over its non-missing values, weighted by the rows' weights
    (``labeled``: doc_id, class_id, weight)."""
    weight = col("weight", "l")
    centre = exp.select(  # each feature's mean over all rows: the first pass's shift
        *(exp.Avg(this=_x(i)).as_(f"c{i}") for i in range(len(names)))
    ).from_(rows_query.subquery("x"))
    means = (
        _with_labels(rows_query, labeled)
        .join(centre.subquery("c"), join_type="CROSS")
        .select(col("class_id", "l").as_("class_id"))
    )
    for i in range(len(names)):  # one select per feature, not copied: linear in features
        moments = templates.expressions(
            "gaussian/moments.sql", x=_x(i), weight=weight, shift=col(f"c{i}", "c")
        )
        means.select(*(e.as_(f"{alias}{i}") for alias, e in moments.items()), copy=False)
    means = means.group_by(col("class_id", "l"))
    squares = (
        _with_labels(rows_query, labeled)
        .join(
            means.subquery("m"),
            on=col("class_id", "m").eq(col("class_id", "l")),
        )
        .select(col("class_id", "m").as_("class_id"))
    )
    for i in range(len(names)):
        (m2,) = templates.expressions(
            "gaussian/m2.sql", x=_x(i), mean=col(f"mean{i}", "m"), weight=weight
        ).values()
        squares.select(
            exp.Max(this=col(f"n{i}", "m")).as_(f"n{i}"),
            exp.Max(this=col(f"mean{i}", "m")).as_(f"mean{i}"),
            m2.as_(f"m2{i}"),
            copy=False,
        )
    squares = squares.group_by(col("class_id", "m"))

    def pick(prefix: str) -> exp.Expr:
        case = exp.Case(this=col("i", "f"))
        for i in range(len(names)):
            case.when(exp.convert(i), col(f"{prefix}{i}", "s"), copy=False)
        return case

    unpivoted = (
        exp.select(
            col("class_id", "s").as_("class_id"),
            col("feature", "f").as_("feature"),
            *(pick(p).as_(p) for p in ("n", "mean", "m2")),
        )
        .from_(squares.subquery("s"))
        .join(_features(names).subquery("f"), join_type="CROSS")
    )
    return (  # a class without a value of the feature has no statistics for it
        exp.select(*STATS[1:])
        .from_(unpivoted.subquery("u"))
        .where(exp.Not(this=exp.Is(this=col("n"), expression=exp.null())))
    )


def stats(model: str, names: Sequence[str], rows_query: exp.Query, labeled: exp.Expr) -> exp.Insert:
    """Insert the Gaussian sufficient statistics of every (class, feature): :func:`moments`
    weighted by the rows' sample (and class) weights."""
    found = moments(names, rows_query, labeled).subquery("s")
    kept = exp.select(exp.convert(model).as_("model"), *STATS[1:]).from_(found)
    return exp.insert(kept, templates.table("sqlnb_gaussian_stats"), columns=list(STATS))


def spread(
    model: str, names: Sequence[str], rows_query: exp.Query, labeled: exp.Expr
) -> exp.Insert:
    """Insert every feature's statistics (feature, n, mean, m2) over all training rows, each
    counted once whatever its weight: the variances scikit-learn takes its variance smoothing
    from (``np.var(X, axis=0)``, without the sample weights)."""
    once = (
        exp.select(
            col("doc_id", "l").as_("doc_id"),
            exp.convert(0).as_("class_id"),
            templates.number(1.0).as_("weight"),
        )
        .distinct()
        .from_(exp.Subquery(this=labeled.copy(), alias=exp.TableAlias(this=exp.to_identifier("l"))))
    )
    found = moments(names, rows_query, once).subquery("s")
    columns = ("feature", "n", "mean", "m2")
    kept = exp.select(exp.convert(model).as_("model"), *columns).from_(found)
    return exp.insert(kept, templates.table("sqlnb_gaussian_spread"), columns=["model", *columns])


def part(model: str | exp.Expr, names: Sequence[str], rows_table: exp.Expr) -> exp.Select:
    """Per (document, class) the Gaussian features' share of the joint log-likelihood: each
    row with each class's parameters, the terms of its features summed."""
    params = exp.select(col("class_id", "g").as_("class_id"))
    for i, name in enumerate(names):
        this = col("feature", "g").eq(exp.convert(name))
        for prefix, value in (("m", "mean"), ("v", "var")):
            params.select(  # in place: a copy per feature would be quadratic in features
                exp.Max(this=exp.Case().when(this.copy(), col(value, "g"))).as_(f"{prefix}{i}"),
                copy=False,
            )
    params = (
        params.from_(exp.alias_(templates.table("sqlnb_gaussian"), "g", table=True))
        .where(col("model", "g").eq(exp.convert(model)))
        .group_by(col("class_id", "g"))
    )
    terms = [
        templates.expressions(
            "gaussian/term.sql", x=_x(i), mean=col(f"m{i}", "p"), var=col(f"v{i}", "p")
        )["term"]
        for i in range(len(names))
    ]
    score = terms[0]
    for term in terms[1:]:
        score = exp.Add(this=score, expression=term)
    return (
        exp.select(
            col("doc_id", "x").as_("doc_id"),
            col("class_id", "p").as_("class_id"),
            score.as_("score"),
            exp.convert(0).as_("n_zero"),
        )
        .from_(exp.alias_(rows_table, "x", table=True))
        .join(params.subquery("p"), join_type="CROSS")
    )
