"""Prediction, evaluation and explanation as queries over one shared pipeline.

A :class:`Pipeline` is the chain of relations every kind shares, as named CTEs: the kind's
inputs, the documents, the joint log-likelihood (``sql/predict/jll.sql``) and the posterior
(``sql/predict/posterior.sql``: log-sum-exp, argmax and tie rule, written once). A final query
reads them by name; the report adds its own final queries to evaluation's pipeline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import catalog, labels, multilabel, templates
from sqlnb.engine import Database, dialects, scratch
from sqlnb.errors import SqlnbError
from sqlnb.inputs import (
    Docs,
    Labels,
    Source,
    Table,
    Tokens,
    as_source,
    labels_for,
    type_family,
)
from sqlnb.kinds.text import linear
from sqlnb.normalise import JLL as JLL  # (the scoring rules, re-exported)
from sqlnb.normalise import decided, decided_outcomes
from sqlnb.normalise import joint as joint
from sqlnb.normalise import joint_of as joint_of
from sqlnb.normalise import normalised as normalised
from sqlnb.normalise import posterior as posterior
from sqlnb.normalise import ranked as ranked

if TYPE_CHECKING:
    from sqlnb.catalog import Entry

# The names of the intermediate relations of prediction and evaluation queries (CTEs), and of
# evaluation's temporary table (a scratch name: evaluate drops it first).
DOCUMENTS, TRUTH, RAW_JLL, POSTERIOR = (
    "sqlnb_documents",
    "sqlnb_truth",
    "sqlnb_raw_jll",
    "sqlnb_posterior",
)
OUTCOMES = scratch.name("sqlnb_outcomes")
DECISIONS = "sqlnb_decisions"


def mapping(by: str | None, alias: str = "c", given: dict[str, exp.Expr] | None = None) -> exp.Expr:
    """A calibrated class's probability p mapped by its calibration row, as method ``by``:
    sigmoid 1 / (1 + exp(a p + b)) (0 or 1 where a p + b is beyond +-700), or the other map's
    piece a + b (p - lo) on lo <= p < hi; for ``by`` None, by the row's own method (the SQL
    functions). p is column proba of p and the row's numbers the columns of ``alias``, unless
    ``given`` (p, lo, a, b, method: the list form's variables)."""
    given = given or {}
    names = ("lo", "a", "b", "method")
    c = {n: given.get(n, templates.col(n, alias)) for n in names}
    p = given.get("p", templates.col("proba", "p"))
    z = exp.paren(exp.Add(this=exp.Mul(this=c["a"], expression=p), expression=c["b"]))
    sigmoid = exp.Case(
        ifs=[
            exp.If(this=exp.GT(this=z, expression=exp.convert(700)), true=exp.convert(0.0)),
            exp.If(this=exp.LT(this=z, expression=exp.convert(-700)), true=exp.convert(1.0)),
        ],
        default=exp.Div(
            this=exp.convert(1.0),
            expression=exp.paren(exp.Add(this=exp.convert(1), expression=exp.Exp(this=z))),
        ),
    )
    piece = exp.Add(
        this=c["a"],
        expression=exp.Mul(this=c["b"], expression=exp.paren(exp.Sub(this=p, expression=c["lo"]))),
    )
    if by is not None:
        return sigmoid if by == "sigmoid" else piece
    is_sigmoid = c["method"].eq(exp.convert("sigmoid"))
    return exp.Case(ifs=[exp.If(this=is_sigmoid, true=sigmoid)], default=piece)


def calibrated(model: exp.Expr, method: str, relation: str) -> exp.Select:
    """The posterior of ``relation`` mapped by the model's one-vs-rest calibration (a method
    that maps: :data:`sqlnb.catalog.METHODS`) and renormalised."""
    mapped = mapping(method)
    values = templates.select(
        "calibrate/calibrated.sql",
        posterior=exp.to_table(relation),
        mapped=mapped,
        model=model,
    )
    return templates.select("predict/renormalise.sql", values=values, rank=ranked("n", "proba"))


def reweighted(weights: dict[int, float], relation: str) -> exp.Select:
    """The posterior of ``relation`` with each class's probability times its weight (new prior
    over training prior), renormalised."""
    weight = exp.Case(
        ifs=[
            exp.If(this=templates.col("class_id", "p").eq(exp.convert(k)), true=templates.number(w))
            for k, w in weights.items()
        ],
        default=templates.number(0.0),
    )
    values = templates.select(
        "predict/reweighted.sql", posterior=exp.to_table(relation), weight=weight
    )
    return templates.select("predict/renormalise.sql", values=values, rank=ranked("n", "proba"))


def _distributed(query: exp.Query, source: Docs) -> exp.Query:
    """``query`` reading the documents of ``source`` distributed by their id first (Spark's
    REPARTITION hint): the set of distinct ids, the tokens' sums by document and class and the
    per-document aggregation then all find their rows where they are, without an exchange of
    their own (a 2M-token prediction: 5 exchanges -> 3, 15 -> 13 jobs)."""
    node = source.node()
    hint = exp.Anonymous(this="REPARTITION", expressions=[templates.col(source.id, quoted=True)])

    def swapped(found: exp.Expr) -> exp.Expr:
        same = isinstance(found, exp.Table) and found.this == node.this
        if not same or found.args.get("db") != node.args.get("db"):
            return found
        rows = exp.select("*").from_(node.copy()).hint(hint.copy(), copy=False)
        return rows.subquery(found.alias or None, copy=False)

    transformed = query.transform(swapped, copy=False)
    assert isinstance(transformed, exp.Query)  # (the root is a query: never swapped)
    return transformed


def stale(entry: Entry) -> str:
    return f"model {entry.name!r} was retrained or dropped after it was loaded: load it again"


def ensure_current(db: Database, entry: Entry) -> None:
    """Refuse to go on if the model was retrained or dropped since it was loaded."""
    if not catalog.is_current(db, entry):
        raise SqlnbError(stale(entry))


@dataclass(frozen=True)
class Pipeline:
    """The shared relations of a prediction, as (name, query) CTEs in order."""

    ctes: Sequence[tuple[str, exp.Query]]
    inputs: Sequence[str] = ()  # the names of the kind's inputs among the ctes

    @classmethod
    def build(
        cls,
        db: Database,
        entry: Entry,
        data: str | Source,
        *,
        documents: exp.Select | None = None,
        unseen: str = "ignore",
        check: bool = True,
        guard: bool = True,
        early: bool = True,
        leading: Sequence[tuple[str, exp.Query]] = (),
        doc: str | None = None,
        dialect: str | None = None,
        calibrate: bool = True,
        priors: dict[int, float] | None = None,
        name: exp.Expr | None = None,
    ) -> Pipeline:
        """The pipeline of model ``entry`` over ``data``: the kind's inputs, the
        ``documents`` (default: every document of the source), the joint log-likelihood and
        the posterior, after ``leading`` CTEs. The input is checked first (NULL ids, bad
        counts) unless ``check`` is off (for a query kept to run later). With ``guard`` (for a
        query sqlnb runs now, not a script or macro kept for later) the query also checks, in
        the snapshot it reads, that the model is still the one loaded
        (``sql/predict/current.sql``), as it checks now unless ``early`` is off (a caller that
        runs the query at once and reads the catalog after it where the engine cannot fail a
        query: one catalog read a command). ``name``: the model's name as the queries say it
        (default: a literal; the SQL functions' parameter)."""
        model = exp.convert(entry.name) if name is None else name
        source = as_source(data)
        if guard and early:
            ensure_current(db, entry)
        the_kind = entry.kind
        inputs = the_kind.inputs(db, source, entry.params, dialect=dialect)
        if isinstance(source, Docs) and db.dialect.tokenizes_first and dialect is None:
            inputs = {  # raw text tokenized once, not wherever the tokens are read
                name: exp.select("*").from_(db.temporary(scratch.fresh(f"{name}_tokens"), query))
                for name, query in inputs.items()
            }
        if check and isinstance(source, Tokens):
            source.check(db, next(iter(inputs.values())))
        elif check and isinstance(source, Table):
            source.check(db)
        if unseen == "error":
            found = the_kind.checks.unseen(db, entry.name, inputs)
            if found:
                raise SqlnbError(
                    f"feature {found[0]!r} has value {found[1]!r}, never seen in "
                    f"training by model {entry.name!r}"
                )
        elif unseen != "ignore":
            raise SqlnbError(f"--unseen must be 'ignore' or 'error', not {unseen!r}")
        if doc is not None:  # one document: its rows only, before anything is scored
            one = exp.cast(exp.column("doc_id"), "VARCHAR").eq(exp.convert(doc))
            inputs = {
                k: exp.select("*").from_(q.subquery("o")).where(one) for k, q in inputs.items()
            }
        terms = the_kind.terms(entry.params)
        jll = templates.select(
            "predict/jll.sql",
            jll=joint_of(),
            documents=exp.to_table(DOCUMENTS),
            base=terms.base(model.copy()),
            parts=terms.parts(model.copy()),
        )
        documents = documents or the_kind.documents(db, source, inputs)
        if doc is not None:  # of a --docs or --table source: every document, but this one
            one = exp.cast(exp.column("doc_id"), "VARCHAR").eq(exp.convert(doc))
            documents = exp.select("*").from_(documents.subquery("o")).where(one)
        method = catalog.calibration(db, entry.name, entry) if calibrate else None
        if guard:
            fail = db.dialect.fail
            stop = exp.func(fail, exp.convert(stale(entry))) if fail else exp.null()
            documents = templates.select(
                "predict/current.sql",
                documents=documents,
                model=model.copy(),
                trained_at=str(entry.info["trained_at"]),
                calibrated=catalog.calibrated(db, entry.name, method),
                stale=stop,
            )
        step = catalog.METHODS.get(method) if method is not None else None
        scoring: list[tuple[str, exp.Query]] = [(JLL, jll)]
        if step == catalog.SCALE:  # softmax(jll / T): the jll divided before the posterior
            scaled = templates.select(
                "calibrate/scaled.sql", jll=exp.to_table(RAW_JLL), model=model.copy()
            )
            scoring = [(RAW_JLL, jll), (JLL, scaled)]
        steps: list[Any] = []
        if step == catalog.MAP:
            steps.append(lambda relation: calibrated(model.copy(), str(method), relation))
        if priors is not None:
            steps.append(lambda relation: reweighted(priors, relation))
        names = [f"{POSTERIOR}_{i}" for i in range(len(steps))] + [POSTERIOR]
        first = multilabel.posterior(JLL) if multilabel.of(entry) else posterior()
        posteriors = [(names[0], first)]
        posteriors += [(names[i + 1], step(names[i])) for i, step in enumerate(steps)]
        ctes = [*leading, *inputs.items(), (DOCUMENTS, documents), *scoring, *posteriors]
        if isinstance(source, Docs) and db.backend.distributes_documents and dialect is None:
            ctes = [(n, _distributed(q, source)) for n, q in ctes]
        return cls(ctes, tuple(inputs))

    def select(self, final: exp.Select) -> exp.Select:
        """``final`` preceded by the pipeline's relations."""
        for name, query in self.ctes:
            final = final.with_(name, as_=query, copy=False)
        return final

    def with_input(self) -> exp.Select:
        """The number of documents with a row in any of the kind's inputs (a document with
        none, say no token, is scored by its base alone)."""
        ids: exp.Query | None = None
        for name in self.inputs:
            one = exp.select("doc_id").from_(name)
            ids = one if ids is None else exp.union(ids, one, distinct=False)
        count = exp.select(exp.func("COUNT", exp.Star())).from_(DOCUMENTS)
        if ids is not None:
            count = count.where(exp.column("doc_id").isin(query=ids))
        return Pipeline([(n, q.copy()) for n, q in self.ctes], self.inputs).select(count)

    def restricted(self, names: Sequence[str], to: exp.Query) -> Pipeline:
        """The pipeline with the relations ``names`` (inputs with a doc_id) restricted to the
        documents of ``to`` (doc_id)."""
        ids = exp.select("doc_id").from_(to.subquery("r"))
        return Pipeline(
            [
                (
                    name,
                    exp.select("*")
                    .from_(query.subquery("i"))
                    .where(exp.column("doc_id").isin(query=ids))
                    if name in names
                    else query,
                )
                for name, query in self.ctes
            ],
            self.inputs,
        )


def label(entry: Entry) -> exp.Expr:
    """The stored label text, cast back to the type of the training labels."""
    text = exp.column("label", table="c")
    if type_family(entry.label_type) == "text":
        return text
    try:
        target = exp.DataType.build(entry.label_type, dialect=templates.SOURCE_DIALECT)
    except Exception:  # a type sqlglot cannot spell: labels stay text
        return text
    return exp.cast(text, target)


def prediction(
    db: Database,
    entry: Entry,
    data: str | Source,
    *,
    proba: bool = False,
    costs: exp.Query | None = None,
    confidence: float | None = None,
    threshold: float | None = None,
    **options: Any,
) -> exp.Select:
    """The query of predict's output: (doc_id, label, proba), or with ``proba`` one row per
    (document, class): (doc_id, label, log_proba, proba), or with ``costs`` (a relation
    (actual, predicted, cost) of class_ids, :func:`sqlnb.decisions.costs`) the label of least
    expected cost: (doc_id, label, proba, expected_cost). The ``options`` are
    :meth:`Pipeline.build`'s (``doc``: of that document only; ``dialect``: built for that
    engine, by default the database's own; ``calibrate``, ``priors``; ``name``: the model's
    name as a node, the SQL functions' parameter). A hierarchical model's labels are its walk
    at ``confidence`` (default: the model's): (doc_id, label, proba, depth)."""
    walk = labels.confidence_for(entry, confidence)
    if walk is not None and confidence is not None and (proba or costs is not None):
        raise SqlnbError("--confidence walks the labels' tree: not with --proba or --costs")
    pipeline = Pipeline.build(db, entry, data, **options)
    if walk is not None and not proba and costs is None:
        tree = Pipeline([*pipeline.ctes, *labels.walk_ctes(db, entry, POSTERIOR)], pipeline.inputs)
        return tree.select(labels.walk(walk))
    model = options.get("name") or exp.convert(entry.name)
    if multilabel.of(entry) or threshold is not None:  # one binary classifier per label
        ml = multilabel.final(entry, label(entry), POSTERIOR, proba=proba, threshold=threshold,
                              model=model, costs=costs, **options)  # fmt: skip
        return pipeline.select(ml)
    if costs is not None:
        if proba:
            raise SqlnbError("--costs decides one label per document: it does not go with --proba")
        final = templates.select(
            "predict/costed.sql",
            decisions=exp.to_table(DECISIONS),
            posterior=exp.to_table(POSTERIOR),
            label=label(entry),
            model=model.copy(),
        )
        decisions = templates.select(
            "predict/costs.sql", posterior=exp.to_table(POSTERIOR), costs=costs
        )
        return pipeline.select(final).with_(DECISIONS, as_=decisions, copy=False)
    target = dialects.dialect(options.get("dialect") or db.dialect.name)
    own = not any(n.startswith(f"{POSTERIOR}_") for n, _ in pipeline.ctes)  # no map, no priors
    if not proba and own and target.lists:  # one GROUP BY, not the posterior's windows
        ctes = [(n, q) if n != POSTERIOR else (n, decided(target.name)) for n, q in pipeline.ctes]
        pipeline = Pipeline(ctes, pipeline.inputs)
    final = templates.select(
        "predict/proba.sql" if proba else "predict/labels.sql",
        posterior=exp.to_table(POSTERIOR),
        label=label(entry),
        model=model.copy(),
    )
    return pipeline.select(final)


def evaluation_pipeline(
    db: Database,
    entry: Entry,
    data: str | Source,
    labels: str | Labels | None = None,
    *,
    guard: bool = True,
    check: bool = True,
    dialect: str | None = None,
    calibrate: bool = True,
    purpose: str = "evaluate",
    early: bool = True,
) -> Pipeline:
    """The pipeline over the labeled documents of ``data``, with their labels (``TRUTH``);
    the inputs are checked first (for ``purpose``, which their messages name) unless
    ``check`` is off (checked already); built for the engine ``dialect`` (default: the
    database's own); calibrated unless ``calibrate`` is off."""
    source = as_source(data)
    the_labels = labels_for(source, labels)
    truth = the_labels.query(db)
    if check:
        the_labels.check(db, truth, purpose=purpose)
        given = the_labels.label_type(db)
        if type_family(given) != type_family(entry.label_type):
            raise SqlnbError(
                f"labels column {the_labels.label!r} of {the_labels.table!r} is {given}, but "
                f"model {entry.name!r} was trained on {entry.label_type} labels"
            )
    documents = templates.select("input/documents.sql", source=exp.to_table(TRUTH))
    return Pipeline.build(
        db,
        entry,
        source,
        documents=documents,
        guard=guard,
        early=early,
        check=check,
        leading=[(TRUTH, truth)],
        dialect=dialect,
        calibrate=calibrate,
    )


def evaluation(
    evaluated: Pipeline, model: str, dialect: str
) -> tuple[exp.Expr, list[exp.Expr], exp.Expr]:
    """(create the outcomes temp table, [confusion, per_class, summary, reliability], drop it)
    of an :func:`evaluation_pipeline` of ``model``, for the engine ``dialect``: where it has
    lists and the posterior is the model's own (no calibration map), the outcomes come from
    one aggregation over the joint log-likelihood, not the posterior's windows."""
    own = not any(n.startswith(f"{POSTERIOR}_") for n, _ in evaluated.ctes)
    if own and dialects.dialect(dialect).lists:
        ctes = [(n, q) for n, q in evaluated.ctes if n != POSTERIOR]
        outcomes = Pipeline(ctes).select(decided_outcomes(dialect, TRUTH, model))
    else:
        truth, posterior = exp.to_table(TRUTH), exp.to_table(POSTERIOR)
        final = templates.select(
            "evaluate/outcomes.sql", truth=truth, posterior=posterior, model=model
        )
        outcomes = evaluated.select(final)
    create = exp.Create(
        this=exp.to_table(OUTCOMES),
        kind="TABLE",
        expression=outcomes,
        properties=exp.Properties(expressions=[exp.TemporaryProperty()]),
    )
    table = exp.to_table(OUTCOMES)
    per_class = templates.render("evaluate/per_class.sql", outcomes=table)
    reliability = templates.render("evaluate/reliability.sql", outcomes=table)
    summary = templates.render(
        "evaluate/summary.sql", outcomes=table, per_class=per_class, reliability=reliability
    )
    queries = [templates.render("evaluate/confusion.sql", outcomes=table), per_class, summary]
    return create, [*queries, reliability], templates.render("catalog/drop_table.sql", table=table)


def depth_accuracy(
    db: Database, entry: Entry, data: str | Source, labels_of: Any, calibrate: bool = True
) -> list[dict[str, Any]]:
    """A hierarchical model's accuracy at each depth (``sql/labels/depths.sql``) on labeled
    documents, walked at its stored confidence: [{depth, n_docs, accuracy}]."""
    evaluated = evaluation_pipeline(db, entry, data, labels_of, calibrate=calibrate, check=False)
    walked = labels.walk(float(entry.params["confidence"]))
    ctes = [*evaluated.ctes, *labels.walk_ctes(db, entry, POSTERIOR), ("sqlnb_walked", walked)]
    rows = db.fetch_dicts(Pipeline(ctes).select(labels.depths(TRUTH, "sqlnb_walked")))
    return [{"depth": int(r["depth"]), "n_docs": int(r["n_docs"]), "accuracy": r["accuracy"]}
            for r in rows]  # fmt: skip


def explanation(
    db: Database,
    entry: Entry,
    data: str | Source,
    *,
    doc: str | None = None,
    top: int | None = None,
) -> exp.Select:
    """(doc_id, feature, contribution): why each document got its label rather than the
    runner-up; a document's contributions add up to log P(label) - log P(runner-up)."""
    if entry.n_classes < 2:
        raise SqlnbError(f"model {entry.name!r} has one class: nothing to explain against")
    if top is not None and top < 1:
        raise SqlnbError("--top must be at least 1")
    final = templates.select(
        "explain/contributions.sql",
        features=entry.kind.contributions(entry.name, entry.params),
        documents=exp.to_table(DOCUMENTS),
        base=entry.kind.terms(entry.params).base(entry.name),
        posterior=exp.to_table(POSTERIOR),
        top=top if top is not None else 2**62,
    )
    # the model's own posterior: calibration maps probabilities, not the words' contributions
    built = Pipeline.build(db, entry, data, doc=None if doc is None else str(doc), calibrate=False)
    query = built.select(final)
    if doc is None:
        return query
    return (
        exp.select("*")
        .from_(query.subquery("e"))
        .where(exp.cast(exp.column("doc_id"), "VARCHAR").eq(exp.convert(str(doc))))
    )


def weights(entry: Entry) -> exp.Select:
    """(feature, weight): a two-class text model as a linear classifier."""
    if entry.n_classes != 2:
        raise SqlnbError(
            f"model {entry.name!r} has {entry.info.get('n_classes')} classes: "
            "the linear form needs exactly two"
        )
    scores = linear(entry.kind, entry.name, entry.params)
    if scores is None:
        raise SqlnbError(
            f"a {entry.kind_name} model has no linear form (weights are for text kinds)"
        )
    base = entry.kind.terms(entry.params).base(entry.name)
    return templates.select("weights/text.sql", scores=scores, base=base)
