"""The table kinds, read from a wide table: Gaussian, categorical, and mixed (each column the
likelihood that fits its type). All three are one kind of model with a likelihood per feature:
the joint log-likelihood is the sum over features."""

from __future__ import annotations

from typing import Any, ClassVar

from sqlglot import exp

from sqlnb import templates
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Table, require, source_node, type_family
from sqlnb.kinds import gaussian
from sqlnb.kinds.base import (
    Frequencies,
    Inputs,
    Kind,
    Labeled,
    ModelTable,
    Name,
    Normal,
    Params,
    Section,
)
from sqlnb.kinds.params import ALPHA, PRIORS, SAMPLE_VARIANCE, VAR_SMOOTHING, Hyper
from sqlnb.templates import col

# The inputs: Gaussian features wide (one row per example) for counting and scoring, and long
# (doc_id, feature, value) for explanations; categorical features long.
ROWS, NUMERIC, CATEGORIES = "sqlnb_rows", "sqlnb_numeric", "sqlnb_categories"
GAUSSIAN, CATEGORICAL = "gaussian", "categorical"  # a feature's likelihood

TABLES = (
    ModelTable(
        "sqlnb_gaussian_stats",
        ("class_id", "feature", "n", "mean", "m2"),
        counts=True,
        keys=(("class_id", "feature"),),
        amounts=("n", "m2"),
        finite=("mean",),
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


def _likelihoods(params: Params) -> set[str]:
    return {kind for _, kind in params["features"]}


def _gaussian(params: Params) -> list[str]:
    """The Gaussian features, in the model's order."""
    return [name for name, kind in params["features"] if kind == GAUSSIAN]


class Tabular(Kind):
    """Naive Bayes over the columns of a wide table."""

    name = "mixed"
    reads = (Table,)
    needs = "a wide table (--table)"
    noun = "features"
    size = "features"
    default: ClassVar[str | None] = None
    tables = TABLES
    hyperparameters: ClassVar[tuple[Hyper, ...]] = (ALPHA, VAR_SMOOTHING, SAMPLE_VARIANCE, *PRIORS)

    def prepare(self, db: Database, source: Any, params: Params) -> Params:
        """The features of the table, each with its likelihood."""
        return {**params, "features": features(db, source, self.default)}

    def check_settings(self, params: Params) -> None:
        """The features: a list of distinct [name, likelihood] pairs."""
        features = params.get("features")
        ok = (
            isinstance(features, list)
            and features
            and all(
                isinstance(f, list)
                and len(f) == 2
                and isinstance(f[0], str)
                and f[1] in (GAUSSIAN, CATEGORICAL)
                and (self.default is None or f[1] == self.default)
                for f in features
            )
        )
        if not ok or not features or len({f[0] for f in features}) != len(features):
            raise SqlnbError(f"features {features!r} are not a list of [name, likelihood]")

    def inputs(
        self, db: Database, source: Any, params: Params, *, dialect: str | None = None
    ) -> Inputs:
        if not isinstance(source, Table):
            raise SqlnbError(f"a {self.name} model reads a wide table (--table), not tokens")
        inputs: Inputs = {}
        if GAUSSIAN in _likelihoods(params):
            names = _gaussian(params)
            columns = [templates.col(n, quoted=True) for n in names]
            inputs[ROWS] = gaussian.rows(
                templates.col(source.id, quoted=True), columns, source_node(source.table)
            )
            inputs[NUMERIC] = values(db, source, params["features"], GAUSSIAN)
            counts = db.fetch(gaussian.non_finite(inputs[ROWS], len(names)))[0]
            if any(counts):  # name the first one (a slower query, run only then)
                row = db.fetch(templates.render("check/numeric.sql", values=inputs[NUMERIC]))
                raise SqlnbError(
                    f"feature {row[0][0]!r} of {source.table!r} is NaN or infinite in row "
                    f"{row[0][1]}"
                )
        if CATEGORICAL in _likelihoods(params):
            inputs[CATEGORIES] = values(db, source, params["features"], CATEGORICAL)
        return inputs

    def documents(self, db: Database, source: Any, inputs: Inputs) -> exp.Select:
        assert isinstance(source, Table)
        return source.ids(db)

    def count(self, model: str, inputs: Inputs, labeled: Labeled, params: Params) -> list[exp.Expr]:
        rows = labeled.rows
        statements: list[exp.Expr] = []
        if ROWS in inputs:
            statements.append(gaussian.stats(model, _gaussian(params), inputs[ROWS], rows))
        if CATEGORIES in inputs:
            statements.append(
                templates.render(
                    "categorical/counts.sql",
                    model=model,
                    values=inputs[CATEGORIES],
                    labeled=rows,
                )
            )
        return statements

    def derive(self, model: str, params: Params, n_classes: int) -> list[exp.Expr]:
        statements = []
        if GAUSSIAN in _likelihoods(params):
            statements.append(
                templates.render(
                    "gaussian/params.sql",
                    model=model,
                    sample=bool(params["sample_variance"]),
                    var_smoothing=templates.number(params["var_smoothing"]),
                )
            )
        if CATEGORICAL in _likelihoods(params):
            statements.append(
                templates.render(
                    "categorical/log_theta.sql",
                    model=model,
                    alpha=templates.number(params["alpha"]),
                )
            )
        return statements

    def check(self, db: Database, model: str, params: Params) -> None:
        if GAUSSIAN not in _likelihoods(params):
            return
        rows = db.fetch(templates.render("gaussian/zero_variance.sql", model=model))
        if rows:
            feature, label = rows[0]
            raise SqlnbError(
                f"feature {feature!r} has variance 0 in class {label!r} (constant, and "
                "var_smoothing is 0): give --var-smoothing > 0"
            )

    def parts(self, model: Name, params: Params) -> exp.Expr:
        parts: list[exp.Expr] = []
        if GAUSSIAN in _likelihoods(params):
            parts.append(gaussian.part(model, _gaussian(params), exp.to_table(ROWS)))
        if CATEGORICAL in _likelihoods(params):
            parts.append(
                templates.render(
                    "categorical/part.sql", model=model, values=exp.to_table(CATEGORIES)
                )
            )
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

    def contributions(self, model: str, params: Params) -> exp.Expr:
        parts: list[exp.Expr] = []
        if GAUSSIAN in _likelihoods(params):
            parts.append(
                templates.render("explain/gaussian.sql", model=model, values=exp.to_table(NUMERIC))
            )
        if CATEGORICAL in _likelihoods(params):
            parts.append(
                templates.render(
                    "explain/categorical.sql", model=model, values=exp.to_table(CATEGORIES)
                )
            )
        query = parts[0]
        for part in parts[1:]:
            query = exp.union(query, part, distinct=False)
        return query

    def unseen(self, db: Database, model: str, inputs: Inputs) -> tuple[str, str] | None:
        """A categorical value never seen in training, if there is one."""
        if CATEGORIES not in inputs:
            return None
        rows = db.fetch(
            templates.render("categorical/unseen.sql", model=model, values=inputs[CATEGORIES])
        )
        return (rows[0][0], rows[0][1]) if rows else None

    def n_features(self, model: str, params: Params) -> exp.Expr:
        return exp.convert(len(params["features"]))

    def describe(self, db: Database, model: str, top: int) -> list[Section]:
        """Per class the Gaussian features' means and variances, and the categorical features'
        value probabilities."""
        gaussian = db.fetch_dicts(templates.render("show/gaussian.sql", model=model))
        categories = db.fetch_dicts(templates.render("show/categories.sql", model=model))
        return [
            Normal("gaussian", "Gaussian features", gaussian),
            Frequencies("categories", "Categorical features", categories),
        ]


class Gaussian(Tabular):
    """Every feature normal within each class."""

    name = "gaussian"
    default = GAUSSIAN
    hyperparameters: ClassVar[tuple[Hyper, ...]] = (VAR_SMOOTHING, SAMPLE_VARIANCE, *PRIORS)


class Categorical(Tabular):
    """Every feature a categorical variable within each class."""

    name = "categorical"
    default = CATEGORICAL
    hyperparameters: ClassVar[tuple[Hyper, ...]] = (ALPHA, *PRIORS)


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


def values(
    db: Database, source: Table, features: list[tuple[str, str]], likelihood: str
) -> exp.Query:
    """The features of one likelihood in long form (doc_id, feature, value)."""
    columns = db.columns(source_node(source.table))
    template = (
        "input/numeric_feature.sql" if likelihood == GAUSSIAN else "input/category_feature.sql"
    )
    parts: list[exp.Select] = []
    for name, kind in features:
        if kind != likelihood:
            continue
        require(source.table, columns, {"id": source.id, "feature": name})
        parts.append(
            templates.select(
                template,
                id=templates.col(source.id, quoted=True),
                feature=name,
                column=templates.col(name, quoted=True),
                source=source_node(source.table),
            )
        )
    query: exp.Query = parts[0]
    for part in parts[1:]:
        query = exp.union(query, part, distinct=False)
    return query
