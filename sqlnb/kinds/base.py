"""What a model kind provides: small pieces over the shared storage and prediction path."""

from __future__ import annotations

from typing import Any, ClassVar

from sqlglot import exp

from sqlnb import templates
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError

Params = dict[str, Any]
Inputs = dict[str, exp.Select]


class Kind:
    """A Naive Bayes event model.

    A kind reads its input (``source``: a tokens table or a wide table) into named relations,
    counts its sufficient statistics, derives its parameters, and scores documents as a
    per-class ``base`` plus per-document ``parts``; the classes, priors, catalog, log-sum-exp,
    argmax and evaluation are shared (``sqlnb.model``).
    """

    name: ClassVar[str]
    source: ClassVar[str]  # "tokens" or "table"
    tables: ClassVar[tuple[str, ...]]  # its own tables, besides sqlnb_classes and sqlnb_prior
    counts: ClassVar[tuple[str, ...]]  # those of them that hold counts (the rest is derived)
    creates: ClassVar[tuple[str, ...]]
    hyperparameters: ClassVar[dict[str, Any]]  # the ones it accepts, with their defaults
    uses_prior: ClassVar[bool] = True

    def inputs(self, db: Database, source: Any, params: Params) -> Inputs:
        """The input as named queries (their names are the CTE names used by ``parts``)."""
        raise NotImplementedError

    def documents(self, db: Database, source: Any, inputs: Inputs) -> exp.Select:
        """Every document (row) of a source to classify, as (doc_id); ``inputs`` are the
        source's relations as :meth:`inputs` made them."""
        raise NotImplementedError

    def count(
        self, model: str, inputs: Inputs, labeled: exp.Expr, params: Params
    ) -> list[exp.Expr]:
        """Statements that insert the sufficient statistics."""
        raise NotImplementedError

    def derive(self, model: str, params: Params, n_classes: int) -> list[exp.Expr]:
        """Statements that insert the derived parameters from the stored counts of
        ``n_classes`` classes."""
        raise NotImplementedError

    def check(self, db: Database, model: str, params: Params) -> None:
        """Refuse a trained model whose parameters are unusable (runs inside the transaction)."""

    def base(self, model: str) -> exp.Expr:
        """Per-class base of the joint log-likelihood: (class_id, score, n_zero)."""
        return templates.render("predict/base_prior.sql", model=model)

    def parts(self, model: str, params: Params, n_classes: int) -> exp.Expr:
        """Per-document parts of the joint log-likelihood: (doc_id, class_id, score, n_zero),
        one row per document and class, reading the relations named by ``inputs``, for a model
        of ``n_classes`` classes."""
        raise NotImplementedError

    def n_features(self, model: str, params: Params) -> exp.Expr:
        raise NotImplementedError

    def explain(self, model: str, params: Params) -> exp.Expr:
        """Per (doc_id, class_id, feature) the feature's score: the parts, not summed."""
        raise NotImplementedError

    def scores(self, model: str) -> exp.Expr:
        """Per (class_id, word) the score of a word's presence, for the linear form."""
        raise SqlnbError(f"a {self.name} model has no linear form (weights are for text kinds)")

    def resolve(self, given: Params) -> Params:
        """The hyperparameters with defaults filled in; ones the kind does not define refused."""
        resolved = dict(self.hyperparameters)
        for name, value in given.items():
            if value is None:
                continue
            if name not in self.hyperparameters:
                option = "--" + name.replace("_", "-")
                raise SqlnbError(f"kind {self.name!r} does not use {option}")
            resolved[name] = value
        for name in ("alpha", "beta", "prior_alpha", "var_smoothing"):
            value = resolved.get(name)
            if value is not None and not 0 <= value < float("inf"):
                raise SqlnbError(f"{name} must be a finite number >= 0, not {value}")
        return resolved


PRIOR_DEFAULTS: dict[str, Any] = {"fit_prior": True, "class_prior": None, "prior_alpha": 0.0}
