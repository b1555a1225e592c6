"""The likelihoods of a table model's features: each feature is normal (Gaussian) or
categorical within a class. A likelihood reads its features of a wide table, counts them,
derives its parameters, scores and explains a row, and describes itself; the table kinds
(:mod:`sqlnb.kinds.tabular`) sum over the likelihoods their features use, never naming one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import templates
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Table, require, source_node
from sqlnb.kinds import gaussian
from sqlnb.kinds.base import Frequencies, Inputs, Name, Normal, Params, Section

if TYPE_CHECKING:
    from sqlnb.engine import Database

# The inputs: Gaussian features wide (one row per example) for counting and scoring, and long
# (doc_id, feature, value) for explanations; categorical features long.
ROWS, NUMERIC, CATEGORIES = "sqlnb_rows", "sqlnb_numeric", "sqlnb_categories"


class Likelihood:
    """One likelihood of a table model's features (``names``: the model's features that have
    it, in the model's order)."""

    name: str
    long: str  # the name of its input in long form (doc_id, feature, value)
    template: str  # the query of one feature in long form

    def inputs(self, db: Database, source: Table, names: Sequence[str]) -> Inputs:
        """Its features of the wide table ``source``, as the named queries it reads."""
        return {self.long: values(db, source, names, self.template)}

    def count(
        self, model: str, inputs: Inputs, labeled: exp.Expr, names: Sequence[str]
    ) -> list[exp.Expr]:
        """The statements that store its counts of the labeled rows."""
        raise NotImplementedError

    def derive(self, model: str, params: Params) -> exp.Expr:
        """The statement that derives its parameters from its counts."""
        raise NotImplementedError

    def check(self, db: Database, model: str) -> None:
        """Refuse a model whose parameters it cannot score with."""

    def part(self, model: Name, names: Sequence[str]) -> exp.Expr:
        """Per (doc_id, class_id) its share of the joint log-likelihood (score, n_zero)."""
        raise NotImplementedError

    def contributions(self, model: str) -> exp.Expr:
        """Per (doc_id, class_id, feature) its log-likelihood (for explain)."""
        raise NotImplementedError

    def unseen(self, db: Database, model: str, inputs: Inputs) -> tuple[str, str] | None:
        """A (feature, value) never seen in training, where it can tell."""
        return None

    def describe(self, db: Database, model: str) -> Section:
        raise NotImplementedError


class Gaussian(Likelihood):
    """A normal distribution per class: counts n, mean, M2; parameters mean and variance."""

    name = "gaussian"
    long = NUMERIC
    template = "input/numeric_feature.sql"

    def inputs(self, db: Database, source: Table, names: Sequence[str]) -> Inputs:
        columns = [templates.col(n, quoted=True) for n in names]
        rows = gaussian.rows(
            templates.col(source.id, quoted=True), columns, source_node(source.table)
        )
        inputs = {ROWS: rows, **super().inputs(db, source, names)}
        if any(db.fetch(gaussian.non_finite(rows, len(names)))[0]):
            # name the first one (a slower query, run only then)
            row = db.fetch(templates.render("check/numeric.sql", values=inputs[NUMERIC]))
            raise SqlnbError(
                f"feature {row[0][0]!r} of {source.table!r} is NaN or infinite in row {row[0][1]}"
            )
        return inputs

    def count(
        self, model: str, inputs: Inputs, labeled: exp.Expr, names: Sequence[str]
    ) -> list[exp.Expr]:
        return [
            gaussian.stats(model, names, inputs[ROWS], labeled),
            gaussian.spread(model, names, inputs[ROWS], labeled),
        ]

    def derive(self, model: str, params: Params) -> exp.Expr:
        return templates.render(
            "gaussian/params.sql",
            model=model,
            sample=bool(params["sample_variance"]),
            var_smoothing=templates.number(params["var_smoothing"]),
        )

    def check(self, db: Database, model: str) -> None:
        rows = db.fetch(templates.render("gaussian/zero_variance.sql", model=model))
        if rows:
            feature, label = rows[0]
            raise SqlnbError(
                f"feature {feature!r} has variance 0 in class {label!r} (constant, and "
                "var_smoothing is 0): give --var-smoothing > 0"
            )

    def part(self, model: Name, names: Sequence[str]) -> exp.Expr:
        return gaussian.part(model, names, exp.to_table(ROWS))

    def contributions(self, model: str) -> exp.Expr:
        return templates.render("explain/gaussian.sql", model=model, values=exp.to_table(NUMERIC))

    def describe(self, db: Database, model: str) -> Section:
        rows = db.fetch_dicts(templates.render("show/gaussian.sql", model=model))
        return Normal("gaussian", "Gaussian features", rows)


class Categorical(Likelihood):
    """A categorical distribution per class: counts per value; parameters log theta."""

    name = "categorical"
    long = CATEGORIES
    template = "input/category_feature.sql"

    def count(
        self, model: str, inputs: Inputs, labeled: exp.Expr, names: Sequence[str]
    ) -> list[exp.Expr]:
        return [
            templates.render(
                "categorical/counts.sql", model=model, values=inputs[CATEGORIES], labeled=labeled
            )
        ]

    def derive(self, model: str, params: Params) -> exp.Expr:
        alpha = templates.number(params["alpha"])
        return templates.render("categorical/log_theta.sql", model=model, alpha=alpha)

    def part(self, model: Name, names: Sequence[str]) -> exp.Expr:
        return templates.render(
            "categorical/part.sql", model=model, values=exp.to_table(CATEGORIES)
        )

    def contributions(self, model: str) -> exp.Expr:
        return templates.render(
            "explain/categorical.sql", model=model, values=exp.to_table(CATEGORIES)
        )

    def unseen(self, db: Database, model: str, inputs: Inputs) -> tuple[str, str] | None:
        rows = db.fetch(
            templates.render("categorical/unseen.sql", model=model, values=inputs[CATEGORIES])
        )
        return (rows[0][0], rows[0][1]) if rows else None

    def describe(self, db: Database, model: str) -> Section:
        rows = db.fetch_dicts(templates.render("show/categories.sql", model=model))
        return Frequencies("categories", "categorical features", rows)


LIKELIHOODS: dict[str, Likelihood] = {lk.name: lk for lk in (Gaussian(), Categorical())}


def values(db: Database, source: Table, names: Sequence[str], template: str) -> exp.Query:
    """Features of a wide table in long form (doc_id, feature, value), by ``template``."""
    columns = db.columns(source_node(source.table))
    parts: list[exp.Select] = []
    for name in names:
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


def used(params: Params) -> list[tuple[Likelihood, list[str]]]:
    """The likelihoods a model's features use, each with its features in the model's order
    (in the order of :data:`LIKELIHOODS`)."""
    features: list[Any] = params["features"]
    return [
        (lk, names)
        for lk in LIKELIHOODS.values()
        if (names := [n for n, kind in features if kind == lk.name])
    ]
