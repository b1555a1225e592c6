"""The text kinds, read from a tokens table: multinomial, Bernoulli, complement."""

from __future__ import annotations

from typing import Any, ClassVar

from sqlglot import exp

from sqlnb import templates
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Tokens
from sqlnb.kinds import wide
from sqlnb.kinds.base import PRIOR_DEFAULTS, Inputs, Kind, Params
from sqlnb.tokenizer import Docs, Tokenizer

TOKENS = "sqlnb_input"
LOG_THETA = ("model", "class_id", "label", "word", "log_theta")
LOG_ABSENT = ("model", "class_id", "word", "log_absent")


class TextKind(Kind):
    source = "tokens"
    scored = "text/tokens.sql"  # the tokens a document is scored by
    # The formulas of the columns of sqlnb_scoring (see wide.py), by their prefix.
    weights: ClassVar[dict[str, str]]
    tables: ClassVar[tuple[str, ...]] = ("sqlnb_word_counts", "sqlnb_log_theta", wide.TABLE)
    counts = ("sqlnb_word_counts",)
    creates: ClassVar[tuple[str, ...]] = (
        "catalog/create_word_counts.sql",
        "catalog/create_log_theta.sql",
        wide.CREATE,
    )

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

    def documents(self, db: Database, source: Any, inputs: Inputs) -> exp.Select:
        if isinstance(source, Docs):  # every document, also those without a token
            return source.ids(db)
        # A copy of the tokens query, not the relation the parts read: a relation read twice is
        # materialised (on DuckDB), which costs more time and memory than a second scan.
        tree = templates.render("input/documents.sql", source=inputs[TOKENS].copy().subquery("t"))
        assert isinstance(tree, exp.Select)
        return tree

    def parts(self, model: str, params: Params, n_classes: int) -> exp.Expr:
        tokens = templates.render(self.scored, tokens=exp.to_table(TOKENS))
        assert isinstance(tokens, exp.Query)
        zeros, absent = self.may_be_zero(params), "a" in self.weights
        return wide.parts(model, n_classes, tokens, zeros=zeros, absent=absent)

    def may_be_zero(self, params: Params) -> bool:
        """Whether the model can hold probability-0 factors (theta = 0 needs alpha = 0)."""
        return bool(params["alpha"] == 0)

    def smoothing(self, params: Params) -> dict[str, exp.Expr]:
        """The hyperparameters the weight formulas use."""
        return {"alpha": templates.number(params["alpha"])}

    def derive(self, model: str, params: Params, n_classes: int) -> list[exp.Expr]:
        """The wide weights from the counts, then their readable long form."""
        smoothing = self.smoothing(params)

        def weight(name: str) -> wide.Weight:
            return lambda bindings: wide.formula(name, {**bindings, **smoothing})

        columns = {prefix: weight(name) for prefix, name in self.weights.items()}
        readable = [
            wide.readable(model, n_classes, "sqlnb_log_theta", "w", LOG_THETA),
            *(
                [wide.readable(model, n_classes, "sqlnb_log_absent", "a", LOG_ABSENT)]
                if "a" in self.weights
                else []
            ),
        ]
        return [*wide.derive(model, n_classes, columns), *readable]

    def n_features(self, model: str, params: Params) -> exp.Expr:
        return templates.render("text/n_features.sql", model=model)

    def explain(self, model: str, params: Params) -> exp.Expr:
        return templates.render("explain/text.sql", model=model, tokens=exp.to_table(TOKENS))

    def scores(self, model: str) -> exp.Expr:
        return templates.render("weights/log_theta.sql", model=model)


class Multinomial(TextKind):
    """A document is a bag of word counts."""

    name = "multinomial"
    weights: ClassVar[dict[str, str]] = {"w": "multinomial/weight.sql"}
    hyperparameters: ClassVar[dict[str, Any]] = {"alpha": 1.0, **PRIOR_DEFAULTS}

    def count(
        self, model: str, inputs: Inputs, labeled: exp.Expr, params: Params
    ) -> list[exp.Expr]:
        return [
            templates.render(
                "multinomial/count.sql", model=model, tokens=inputs[TOKENS], labeled=labeled
            )
        ]


class Complement(Multinomial):
    """Rennie et al. (2003), as scikit-learn's ComplementNB: weights from the other classes'
    counts, no class prior."""

    name = "complement"
    weights: ClassVar[dict[str, str]] = {"w": "complement/weight.sql"}
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

    def smoothing(self, params: Params) -> dict[str, exp.Expr]:
        return {**super().smoothing(params), "norm": exp.convert(bool(params["norm"]))}

    def base(self, model: str) -> exp.Expr:
        return templates.render("complement/base.sql", model=model)


class Bernoulli(TextKind):
    """A document is the set of words it contains; absent words count too."""

    name = "bernoulli"
    scored = "bernoulli/present.sql"
    weights: ClassVar[dict[str, str]] = {"w": "bernoulli/weight.sql", "a": "bernoulli/absent.sql"}
    tables = ("sqlnb_word_counts", "sqlnb_log_theta", "sqlnb_log_absent", wide.TABLE)
    creates = (
        "catalog/create_word_counts.sql",
        "catalog/create_log_theta.sql",
        "catalog/create_log_absent.sql",
        wide.CREATE,
    )
    hyperparameters: ClassVar[dict[str, Any]] = {"alpha": 1.0, "beta": None, **PRIOR_DEFAULTS}

    def count(
        self, model: str, inputs: Inputs, labeled: exp.Expr, params: Params
    ) -> list[exp.Expr]:
        return [
            templates.render(
                "bernoulli/count.sql", model=model, tokens=inputs[TOKENS], labeled=labeled
            )
        ]

    def smoothing(self, params: Params) -> dict[str, exp.Expr]:
        return {**super().smoothing(params), "beta": templates.number(_beta(params))}

    def may_be_zero(self, params: Params) -> bool:
        """theta = 0 needs alpha = 0, and 1 - theta = 0 needs beta = 0."""
        return bool(params["alpha"] == 0 or _beta(params) == 0)

    def base(self, model: str) -> exp.Expr:
        return templates.render("bernoulli/base.sql", model=model)

    def explain(self, model: str, params: Params) -> exp.Expr:
        return templates.render("explain/bernoulli.sql", model=model, tokens=exp.to_table(TOKENS))

    def scores(self, model: str) -> exp.Expr:
        return templates.render("weights/presence.sql", model=model)


def _beta(params: Params) -> float:
    """Bernoulli's beta: alpha unless given."""
    return float(params["alpha"] if params["beta"] is None else params["beta"])
