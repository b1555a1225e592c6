"""Semi-supervised training by EM over labeled and unlabeled documents (Nigam, McCallum, Thrun
and Mitchell, Machine Learning 39, 2000), for the generative text kinds (multinomial,
Bernoulli).

The first model is the labeled-only model over the vocabulary of both sets of documents (each
unlabeled document counted with weight 0). Each iteration then takes, in SQL:

- the E-step: the unlabeled documents' posteriors r under the current model, by the
  prediction pipeline (``sql/em/posterior.sql``);
- the M-step: the model trained again, with the same hyperparameters, on the labeled documents
  (their sample weights) and each unlabeled document once per class with weight lambda r_c
  (``sql/em/weights.sql``): training's own statements, over tables of tokens made once (no
  document is tokenized twice, none passes through Python).

Each model's log-likelihood is the labeled documents' weighted joint log-likelihood of their
class, plus lambda times the unlabeled documents' log-evidence, plus the log density of the
parameters under their Dirichlet (Beta) priors, up to constants. EM stops after the iterations
asked for, or when the relative change of the log-likelihood is below the tolerance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlglot import exp

from sqlnb import catalog, pipeline, settings, templates, training, versions
from sqlnb.catalog import Entry
from sqlnb.classes import check_class_prior, check_weighed, class_weighted
from sqlnb.engine import Database, scratch
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Docs, Labels, Source, Tokens, as_source, labels_for
from sqlnb.kinds import Kind, kind_for
from sqlnb.kinds.base import Labeled
from sqlnb.kinds.params import resolved
from sqlnb.kinds.text import TextKind
from sqlnb.tokenizer import Tokenizer

TOKENS, UNLABELED, DOCUMENTS, LABELED, WEIGHTS, POSTERIOR = (
    scratch.name(f"sqlnb_em_{n}")
    for n in ("tokens", "unlabeled", "documents", "labeled", "weights", "posterior")
)


# The kinds EM trains (the generative text kinds), each with the query of the log density of
# a model's parameters under their priors, up to a constant; why it refuses some others.
DENSITIES = {"multinomial": "multinomial/log_prior.sql", "bernoulli": "bernoulli/log_prior.sql"}
REFUSALS = {
    "complement": "complement Naive Bayes models no class's documents (its weights come from "
    "the other classes): EM's E-step needs P(document | class); use multinomial"
}
REFUSED = "semi-supervised EM is for the text kinds multinomial and bernoulli"


def refuses(kind: Kind, params: dict[str, Any]) -> str:
    """Why EM cannot train ``kind`` with ``params`` ("" if it can)."""
    if kind.name not in DENSITIES:
        return REFUSALS.get(kind.name, REFUSED)
    zero = [n for n in ("alpha", "beta") if params.get(n) == 0]
    if not zero:
        return ""
    return (
        f"EM needs {zero[0]} > 0: with {zero[0]} 0 an unlabeled document can have "
        "probability 0 in every class, and then no posterior to weigh it by"
    )


def log_prior(kind: Kind, model: str, params: dict[str, Any]) -> exp.Expr:
    """The log density of a trained model's parameters under its priors, up to a constant (a
    one-row query, column log_prior): EM's log-likelihood adds it."""
    assert isinstance(kind, TextKind)  # the kinds of DENSITIES
    learned = params.get("fit_prior", True) and params.get("class_prior") is None
    return templates.render(
        DENSITIES[kind.name],
        model=model,
        # the Dirichlet prior of learned class priors
        prior_alpha=templates.number(params.get("prior_alpha") or 0.0 if learned else 0.0),
        **kind.smoothing(params),
    )


@dataclass(frozen=True)
class EM:
    """The unlabeled documents (a tokens or docs table, as the labeled ones) and EM's settings:
    ``weight`` (lambda) of the unlabeled documents, the number of ``iterations``, and the
    ``tolerance`` on the relative change of the log-likelihood (0: every iteration)."""

    unlabeled: Source
    weight: float = settings.EM_WEIGHT.default
    iterations: int = settings.EM_ITERATIONS.default
    tolerance: float = settings.EM_TOLERANCE.default

    def __post_init__(self) -> None:
        for setting in settings.EM:
            setting.check(getattr(self, setting.keyword))

    @classmethod
    def given(cls, unlabeled: Source, *values: Any) -> EM:
        """EM's settings as given (weight, iterations, tolerance): None is the default."""
        return cls(unlabeled, *(s.given(v) for s, v in zip(settings.EM, values, strict=True)))


@dataclass(frozen=True)
class Trained:
    """The model EM wrote and the log-likelihood and class shares of each of its models."""

    entry: Entry
    history: list[dict[str, Any]]


def _table(db: Database, name: str, query: exp.Query) -> exp.Table:
    """A temporary table ``name`` of ``query``'s rows (replacing one of that name)."""
    return db.temporary(name, query)


def train(
    db: Database,
    data: str | Source,
    labels: str | Labels | None,
    em: EM,
    *,
    model: str = "default",
    kind: str | None = None,
    hyper: dict[str, Any] | None = None,
    tokenizer: Tokenizer | None = None,
    keep: int = versions.KEEP,
) -> Trained:
    """Train ``model`` by EM (replacing a model of that name) in one transaction; ``keep``
    bounds the versions kept, the new one included (:mod:`sqlnb.versions`)."""
    catalog.check_name(model)
    versions.check_keep(keep)  # before anything is read or written
    source, unlabeled = as_source(data), as_source(em.unlabeled)
    the_kind = kind_for(kind, source)
    params = resolved(the_kind, hyper or {})
    refusal = refuses(the_kind, params)
    if refusal:
        raise SqlnbError(refusal)
    if type(unlabeled) is not type(source):
        raise SqlnbError(
            "the unlabeled documents must be of the labeled ones' form: --unlabeled with "
            "--tokens, --unlabeled-docs with --docs"
        )
    if isinstance(source, Docs):
        params["tokenizer"] = (tokenizer or Tokenizer()).as_dict()
    elif tokenizer is not None:
        raise SqlnbError("tokenizer options apply to training from text (--docs)")
    batch = training._read(db, source, labels, the_kind, params)
    check_class_prior(params["class_prior"], batch.label_values)
    inputs = the_kind.inputs(db, unlabeled, params)
    if isinstance(unlabeled, Tokens):
        unlabeled.check(db, next(iter(inputs.values())))
    params["em"] = {
        "unlabeled": unlabeled.table,
        "weight": em.weight,
        "iterations": em.iterations,
        "tolerance": em.tolerance,
    }
    labeled_tokens = next(iter(batch.inputs.values()))
    weighted = class_weighted(batch.labels_query, params["class_weight"], batch.label_values)
    named = labels_for(source, labels).name
    check_weighed(db, weighted, named, params["class_weight"], "train on")
    documents = (
        unlabeled.ids(db)
        if isinstance(unlabeled, Docs)
        else templates.select("input/documents.sql", source=next(iter(inputs.values())))
    )
    history: list[dict[str, Any]] = []
    with db.transaction():
        db.stage("preparing")
        kept = versions.before_write(db, model, anew=True)  # the version it replaces is kept
        labeled = _table(db, LABELED, weighted)
        labeled_ids = exp.select("doc_id").from_(labeled.copy())
        tokens = _table(  # the labeled documents' tokens (the table may hold others too)
            db,
            TOKENS,
            exp.select("*")
            .from_(labeled_tokens.subquery("t"))
            .where(exp.column("doc_id", "t").isin(query=labeled_ids)),
        )
        the_unlabeled = _table(db, UNLABELED, next(iter(inputs.values())))
        docs = _table(db, DOCUMENTS, documents)
        _check(db, docs, labeled, unlabeled.table)
        every_token = exp.union(
            exp.select("doc_id", "word", "count").from_(tokens.copy()),
            exp.select("doc_id", "word", "count").from_(the_unlabeled.copy()),
            distinct=False,
        )
        weights = _union("em/start.sql", labeled=labeled, documents=docs)
        previous: float | None = None
        for iteration in range(em.iterations + 1):
            db.stage(f"EM iteration {iteration}" if iteration else "labeled-only model")
            statements = training.writing(  # the M-step (first: the labeled-only model)
                db,
                model,
                the_kind,
                params,
                {next(iter(batch.inputs)): every_token},
                Labeled.of(
                    exp.select("doc_id", "label", "weight").from_(_table(db, WEIGHTS, weights))
                ),
                (batch.label_type, len(batch.label_values)),
            )
            for statement in statements:
                db.execute(statement)
            entry = catalog.entry(db, model)
            # the E-step under this model: the next M-step's weights, and its log-likelihood
            posterior = _table(db, POSTERIOR, _posterior(db, entry, the_unlabeled, docs))
            step = _log_likelihood(db, entry, posterior, tokens, labeled, em.weight)
            history.append({"iteration": iteration, **step})
            current = step["log_likelihood"]
            change = math.inf if previous is None else abs(current - previous)
            if em.tolerance > 0 and change <= em.tolerance * abs(previous or 0.0):
                break  # (tolerance 0: every iteration)
            previous = current
            weights = _union(
                "em/weights.sql",
                labeled=labeled,
                posterior=posterior,
                **{"lambda": templates.number(em.weight)},
            )
        params["em"]["history"] = history
        for statement in (
            *catalog.deletes(model, [catalog.MODELS]),
            catalog.record(model, the_kind, params, batch.label_type),
        ):
            db.execute(statement)
        done = training.Training(db, model, the_kind, params, [], reads=f"table {source.table!r}")
        done.command, done.keep = "train", keep
        written = training.finish(done, kept=kept)
        for name in (TOKENS, UNLABELED, DOCUMENTS, LABELED, WEIGHTS, POSTERIOR):
            db.drop_temporary(exp.to_table(name))
    return Trained(written, history)


def _union(name: str, **bindings: exp.Expr) -> exp.Query:
    """A UNION ALL query of ``sql/``."""
    query = templates.render(name, **bindings)
    assert isinstance(query, exp.Query), name
    return query


def _check(db: Database, docs: exp.Table, labeled: exp.Table, name: str) -> None:
    """Refuse an empty unlabeled set, or one that shares a document with the labeled one."""
    count = db.fetch(exp.select(exp.func("COUNT", exp.Star())).from_(docs.copy()))[0][0]
    if not count:
        raise SqlnbError(f"the unlabeled table {name!r} has no document: nothing for EM to use")
    shared = db.fetch(
        exp.select(exp.Min(this=exp.column("doc_id", "d")))
        .from_(docs.copy().as_("d"))
        .where(exp.column("doc_id", "d").isin(query=exp.select("doc_id").from_(labeled.copy())))
    )[0][0]
    if shared is not None:
        raise SqlnbError(
            f"the unlabeled table {name!r} has document {shared}, which is labeled too: "
            "a document is labeled or unlabeled"
        )


def _posterior(db: Database, entry: Entry, tokens: exp.Table, docs: exp.Table) -> exp.Select:
    """The E-step's query: sql/em/posterior.sql over the unlabeled documents."""
    final = templates.select(
        "em/posterior.sql",
        posterior=exp.to_table(pipeline.POSTERIOR),
        label=pipeline.label(entry),
        model=entry.name,
    )
    return _scored(db, entry, tokens, docs).select(final)


def _scored(
    db: Database, entry: Entry, tokens: exp.Table, docs: exp.Table, *, truth: bool = False
) -> pipeline.Pipeline:
    """The model's own prediction pipeline over the documents of ``docs`` (with their labels
    as TRUTH where ``truth``), scored from the tokens table ``tokens``."""
    leading = [(pipeline.TRUTH, exp.select("*").from_(docs.copy()))] if truth else []
    documents = exp.select("doc_id").from_(docs.copy())
    return pipeline.Pipeline.build(
        db,
        entry,
        Tokens(tokens.name),
        documents=documents,
        check=False,
        guard=False,
        calibrate=False,
        leading=leading,
    )


def _log_likelihood(
    db: Database,
    entry: Entry,
    posterior: exp.Table,
    tokens: exp.Table,
    labeled: exp.Table,
    weight: float,
) -> dict[str, Any]:
    """The model's log-likelihood (its E-step's ``posterior`` gives the unlabeled part) and
    the unlabeled documents' class shares."""
    evidence = db.fetch_dicts(templates.render("em/unlabeled.sql", posterior=posterior))
    final = templates.select(
        "em/labeled.sql",
        posterior=exp.to_table(pipeline.POSTERIOR),
        truth=exp.to_table(pipeline.TRUTH),
        model=entry.name,
    )
    part = db.fetch(_scored(db, entry, tokens, labeled, truth=True).select(final))[0][0]
    prior = db.fetch(log_prior(entry.kind, entry.name, entry.params))[0][0]
    unlabeled = float(evidence[0]["evidence"]) if evidence else 0.0
    labeled_part = float(part) if part is not None else -math.inf
    return {
        "log_likelihood": labeled_part + weight * unlabeled + float(prior or 0.0),
        "shares": {str(r["label"]): float(r["share"]) for r in evidence},
    }
