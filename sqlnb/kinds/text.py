"""The text kinds, read from a tokens table: multinomial, Bernoulli, complement."""

from __future__ import annotations

from typing import Any, ClassVar

from sqlglot import exp

from sqlnb import templates
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Tokens
from sqlnb.kinds.base import PRIOR_DEFAULTS, Inputs, Kind, Params
from sqlnb.tokenizer import Docs, Tokenizer

TOKENS = "sqlnb_input"


class TextKind(Kind):
    source = "tokens"

    def inputs(self, db: Database, source: Any, params: Params) -> Inputs:
        if isinstance(source, Docs):
            settings = params.get("tokenizer")
            if settings is None:
                raise SqlnbError(
                    "this model was trained from a tokens table, so it has no "
                    "tokenizer: classify a tokens table (--tokens)"
                )
            return {TOKENS: Tokenizer.from_dict(settings).tokens(source, db, grouped=False)}
        if not isinstance(source, Tokens):
            raise SqlnbError(f"a {self.name} model reads a tokens table, not --table")
        return {TOKENS: source.query(db)}

    def documents(self, db: Database, source: Any) -> exp.Select:
        if isinstance(source, Docs):  # every document, also those without a token
            return source.ids(db)
        tree = templates.render("input/documents.sql", source=exp.to_table(TOKENS))
        assert isinstance(tree, exp.Select)
        return tree

    def parts(self, model: str, params: Params) -> exp.Expr:
        return templates.render("text/part.sql", model=model, tokens=exp.to_table(TOKENS))

    def n_features(self, model: str, params: Params) -> exp.Expr:
        return templates.render("text/n_features.sql", model=model)

    def explain(self, model: str, params: Params) -> exp.Expr:
        return templates.render("explain/text.sql", model=model, tokens=exp.to_table(TOKENS))

    def scores(self, model: str) -> exp.Expr:
        return templates.render("weights/log_theta.sql", model=model)


class Multinomial(TextKind):
    """A document is a bag of word counts."""

    name = "multinomial"
    tables = ("sqlnb_word_counts", "sqlnb_log_theta")
    counts = ("sqlnb_word_counts",)
    creates = ("catalog/create_word_counts.sql", "catalog/create_log_theta.sql")
    hyperparameters: ClassVar[dict[str, Any]] = {"alpha": 1.0, **PRIOR_DEFAULTS}

    def count(self, model: str, inputs: Inputs, labeled: exp.Expr) -> list[exp.Expr]:
        return [
            templates.render(
                "multinomial/count.sql", model=model, tokens=inputs[TOKENS], labeled=labeled
            )
        ]

    def derive(self, model: str, params: Params) -> list[exp.Expr]:
        alpha = templates.number(params["alpha"])
        return [templates.render("multinomial/log_theta.sql", model=model, alpha=alpha)]


class Complement(Multinomial):
    """Rennie et al. (2003), as scikit-learn's ComplementNB: weights from the other classes'
    counts, no class prior."""

    name = "complement"
    hyperparameters: ClassVar[dict[str, Any]] = {"alpha": 1.0, "norm": False}
    uses_prior = False

    def resolve(self, given: Params) -> Params:
        for option in ("class_prior", "prior_alpha"):
            if given.get(option) is not None:
                flag = "--" + option.replace("_", "-")
                raise SqlnbError(f"kind 'complement' uses no class prior: {flag} does not apply")
        if given.get("fit_prior") is False:
            raise SqlnbError("kind 'complement' uses no class prior: --no-fit-prior does not apply")
        resolved = super().resolve({k: v for k, v in given.items() if k != "fit_prior"})
        if resolved["alpha"] == 0:
            raise SqlnbError(
                "kind 'complement' needs alpha > 0 (its weights are ln(count + alpha))"
            )
        return {**resolved, **PRIOR_DEFAULTS}

    def derive(self, model: str, params: Params) -> list[exp.Expr]:
        return [
            templates.render(
                "complement/log_theta.sql",
                model=model,
                alpha=templates.number(params["alpha"]),
                norm=bool(params["norm"]),
            )
        ]

    def base(self, model: str) -> exp.Expr:
        return templates.render("complement/base.sql", model=model)


class Bernoulli(TextKind):
    """A document is the set of words it contains; absent words count too."""

    name = "bernoulli"
    tables = ("sqlnb_word_counts", "sqlnb_log_theta", "sqlnb_log_absent")
    counts = ("sqlnb_word_counts",)
    creates = (
        "catalog/create_word_counts.sql",
        "catalog/create_log_theta.sql",
        "catalog/create_log_absent.sql",
    )
    hyperparameters: ClassVar[dict[str, Any]] = {"alpha": 1.0, "beta": None, **PRIOR_DEFAULTS}

    def count(self, model: str, inputs: Inputs, labeled: exp.Expr) -> list[exp.Expr]:
        return [
            templates.render(
                "bernoulli/count.sql", model=model, tokens=inputs[TOKENS], labeled=labeled
            )
        ]

    def derive(self, model: str, params: Params) -> list[exp.Expr]:
        beta = params["alpha"] if params["beta"] is None else params["beta"]  # default: alpha
        smoothing = {"alpha": templates.number(params["alpha"]), "beta": templates.number(beta)}
        return [
            templates.render("bernoulli/log_theta.sql", model=model, **smoothing),
            templates.render("bernoulli/log_absent.sql", model=model, **smoothing),
        ]

    def base(self, model: str) -> exp.Expr:
        return templates.render("bernoulli/base.sql", model=model)

    def parts(self, model: str, params: Params) -> exp.Expr:
        return templates.render("bernoulli/part.sql", model=model, tokens=exp.to_table(TOKENS))

    def explain(self, model: str, params: Params) -> exp.Expr:
        return templates.render("explain/bernoulli.sql", model=model, tokens=exp.to_table(TOKENS))

    def scores(self, model: str) -> exp.Expr:
        return templates.render("weights/presence.sql", model=model)
