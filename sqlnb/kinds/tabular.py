"""The table kinds, read from a wide table: Gaussian, categorical, and mixed (each column the
likelihood that fits its type). All three are one kind of model with a likelihood per feature:
the joint log-likelihood is the sum over features."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sqlglot import exp

from sqlnb.errors import SqlnbError
from sqlnb.inputs import Table, require, type_family
from sqlnb.kinds.base import (
    Checks,
    Inputs,
    Kind,
    Labeled,
    ModelTable,
    Name,
    Params,
    Section,
)
from sqlnb.kinds.likelihoods import LIKELIHOODS, Likelihood, used
from sqlnb.kinds.params import ALPHA, CLASS_WEIGHT, PRIORS, SAMPLE_VARIANCE, VAR_SMOOTHING, Hyper
from sqlnb.kinds.terms import Terms
from sqlnb.templates import col

if TYPE_CHECKING:
    from sqlnb.engine import Database

GAUSSIAN, CATEGORICAL = "gaussian", "categorical"  # a feature's likelihood (LIKELIHOODS)

TABLES = (
    ModelTable(
        "sqlnb_gaussian_stats",
        ("class_id", "feature", "n", "mean", "m2"),
        counts=True,
        keys=(("class_id", "feature"),),
        amounts=("n", "m2"),
        finite=("mean",),
    ),
    # every feature over all training rows, unweighted: the variance smoothing's scale
    ModelTable(
        "sqlnb_gaussian_spread",
        ("feature", "n", "mean", "m2"),
        counts=True,
        keys=(("feature",),),
        amounts=("n", "m2"),
        finite=("mean",),
        optional=True,
        folder="gaussian",
    ),
    ModelTable("sqlnb_gaussian", ("class_id", "label", "feature", "mean", "var")),
    ModelTable(
        "sqlnb_category_counts",
        ("class_id", "feature", "value", "count"),
        counts=True,
        keys=(("class_id", "feature", "value"),),
        amounts=("count",),
    ),
    ModelTable("sqlnb_category_log_theta", ("class_id", "label", "feature", "value", "log_theta")),
)


class TableChecks(Checks):
    """What the table kinds refuse: a likelihood's unusable parameters (a Gaussian variance
    of 0), stored features that are not [name, likelihood] pairs (of the kind's one
    likelihood, ``default``, where it has one); they tell a categorical value never seen."""

    def __init__(self, default: str | None) -> None:
        self.default = default

    def trained(self, db: Database, model: str, params: Params) -> None:
        for lk, _ in used(params):
            lk.check(db, model)

    def settings(self, params: Params) -> None:
        """The features: a list of distinct [name, likelihood] pairs."""
        features = params.get("features")
        ok = (
            isinstance(features, list)
            and features
            and all(
                isinstance(f, list)
                and len(f) == 2
                and isinstance(f[0], str)
                and f[1] in LIKELIHOODS
                and (self.default is None or f[1] == self.default)
                for f in features
            )
        )
        if not ok or not features or len({f[0] for f in features}) != len(features):
            raise SqlnbError(f"features {features!r} are not a list of [name, likelihood]")

    def unseen(self, db: Database, model: str, inputs: Inputs) -> tuple[str, str] | None:
        """A categorical value never seen in training, if there is one."""
        for lk in LIKELIHOODS.values():
            if lk.long in inputs:
                found = lk.unseen(db, model, inputs)
                if found is not None:
                    return found
        return None


@dataclass(frozen=True)
class TableTerms(Terms):
    """A table model's terms: the prior as its base, and per row the sum of its features'
    log-likelihoods, each likelihood's part over its ``features`` (likelihood, names)."""

    features: tuple[tuple[Likelihood, tuple[str, ...]], ...]

    def parts(self, model: Name) -> exp.Expr:
        parts = [lk.part(model, names) for lk, names in self.features]
        if len(parts) == 1:
            return parts[0]
        both = exp.union(*parts, distinct=False).subquery("p")
        return (
            exp.select(
                "doc_id",
                "class_id",
                exp.Sum(this=col("score")).as_("score"),
                exp.Sum(this=col("n_zero")).as_("n_zero"),
            )
            .from_(both)
            .group_by("doc_id", "class_id")
        )


class Tabular(Kind):
    """Naive Bayes over the columns of a wide table."""

    name = "mixed"
    reads = (Table,)
    default: ClassVar[str | None] = None
    tables = TABLES
    checks: ClassVar[Checks] = TableChecks(None)
    hyperparameters: ClassVar[tuple[Hyper, ...]] = (
        ALPHA,
        VAR_SMOOTHING,
        SAMPLE_VARIANCE,
        *PRIORS,
        CLASS_WEIGHT,
    )

    def prepare(self, db: Database, source: Any, params: Params) -> Params:
        """The features of the table, each with its likelihood."""
        return {**params, "features": features(db, source, self.default)}

    def inputs(
        self, db: Database, source: Any, params: Params, *, dialect: str | None = None, **_: Any
    ) -> Inputs:
        if not isinstance(source, Table):
            raise SqlnbError(f"a {self.name} model reads a wide table (--table), not tokens")
        return {k: q for lk, names in used(params) for k, q in lk.inputs(db, source, names).items()}

    def documents(self, db: Database, source: Any, inputs: Inputs) -> exp.Select:
        assert isinstance(source, Table)
        return source.ids(db)

    def count(self, model: str, inputs: Inputs, labeled: Labeled, params: Params) -> list[exp.Expr]:
        return [
            s for lk, names in used(params) for s in lk.count(model, inputs, labeled.rows, names)
        ]

    def derive(self, model: str, params: Params, n_classes: int) -> list[exp.Expr]:
        return [lk.derive(model, params) for lk, _ in used(params)]

    def terms(self, params: Params) -> TableTerms:
        """A row's (feature, value) bag: each feature's log-likelihood under its likelihood."""
        return TableTerms(tuple((lk, tuple(names)) for lk, names in used(params)))

    def contributions(self, model: str, params: Params) -> exp.Expr:
        parts = [lk.contributions(model) for lk, _ in used(params)]
        query = parts[0]
        for part in parts[1:]:
            query = exp.union(query, part, distinct=False)
        return query

    def n_features(self, model: str, params: Params) -> exp.Expr:
        return exp.convert(len(params["features"]))

    def describe(self, db: Database, model: str, top: int) -> list[Section]:
        """Each likelihood's parameters per class: the Gaussian features' means and
        variances, the categorical features' value probabilities."""
        return [lk.describe(db, model) for lk in LIKELIHOODS.values()]


class Gaussian(Tabular):
    """Every feature normal within each class."""

    name = "gaussian"
    default = GAUSSIAN
    checks: ClassVar[Checks] = TableChecks(GAUSSIAN)
    hyperparameters: ClassVar[tuple[Hyper, ...]] = (
        VAR_SMOOTHING,
        SAMPLE_VARIANCE,
        *PRIORS,
        CLASS_WEIGHT,
    )


class Categorical(Tabular):
    """Every feature a categorical variable within each class."""

    name = "categorical"
    default = CATEGORICAL
    checks: ClassVar[Checks] = TableChecks(CATEGORICAL)
    hyperparameters: ClassVar[tuple[Hyper, ...]] = (ALPHA, *PRIORS, CLASS_WEIGHT)


def features(db: Database, source: Table, default: str | None) -> list[tuple[str, str]]:
    """Each feature of a wide table with its likelihood: the override, else ``default`` (a
    kind that has one likelihood), else by column type: floating/decimal Gaussian; text,
    boolean and integer categorical."""
    columns = source.columns(db)
    skip = {source.id, source.label, source.weight}
    names = list(source.features) if source.features else [c for c in columns if c not in skip]
    for name in (*names, *source.gaussian, *source.categorical):
        require(source.table, columns, {"feature": name})
        if name in skip:
            raise SqlnbError(
                f"column {name!r} of {source.table!r} cannot be a feature: it "
                "is the id, the label or the weight"
            )
    both = set(source.gaussian) & set(source.categorical)
    if both:
        raise SqlnbError(f"feature {sorted(both)[0]!r} is both --gaussian and --categorical")
    names += [n for n in (*source.gaussian, *source.categorical) if n not in names]
    if not names:
        raise SqlnbError(f"table {source.table!r} has no feature columns")
    return [(name, _likelihood(source, name, columns[name], default)) for name in names]


def _likelihood(source: Table, name: str, sql_type: str, default: str | None) -> str:
    family = type_family(sql_type)
    if name in source.gaussian or (name not in source.categorical and default == GAUSSIAN):
        if family not in ("integer", "number"):
            raise SqlnbError(
                f"column {name!r} of {source.table!r} is {sql_type}: a Gaussian "
                "feature must be numeric"
            )
        return GAUSSIAN
    if name in source.categorical or default == CATEGORICAL:
        return CATEGORICAL
    if family == "number":
        return GAUSSIAN
    if family in ("integer", "text", "BOOLEAN") or sql_type.startswith("ENUM"):
        return CATEGORICAL
    raise SqlnbError(
        f"column {name!r} of {source.table!r} is {sql_type}: name it with "
        "--gaussian or --categorical"
    )
