"""The rows form of the SQL functions: a text (or a tokens table) scored by a join and a GROUP
BY, as ``predict`` scores documents. Two variants of one tree: the pipeline ``predict`` runs for
one model, its name the functions' parameter (:func:`one_text`: PostgreSQL's branches, SQLite's
functions), and that of any model, each kind's terms widened to any of its models
(:func:`labels`: Spark's functions, PostgreSQL's fallback and sqlnb_predict, DuckDB's
sqlnb_predict). The steps after the joint log-likelihood (scale, posterior, map, label) are
written once, here, for every engine that scores rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import catalog, multilabel, templates
from sqlnb.catalog import TOKENIZERS
from sqlnb.engine import dialects
from sqlnb.functions.shape import MODEL, SERVED, TEXT, Shape
from sqlnb.inputs import Docs, Tokens
from sqlnb.kinds import KINDS, params
from sqlnb.kinds.text import BASE
from sqlnb.labels import WALKED, walked_rows
from sqlnb.pipeline import (
    DOCUMENTS,
    JLL,
    POSTERIOR,
    RAW_JLL,
    Pipeline,
    joint_of,
    mapping,
    posterior,
    prediction,
    ranked,
)
from sqlnb.tokenizer import Tokenizer

if TYPE_CHECKING:
    from sqlnb.engine import Database
    from sqlnb.kinds.terms import Terms

INPUT = "sqlnb_input"


@dataclass(frozen=True)
class _Text(Docs):
    """The macro's text argument as a one-row docs table."""

    def node(self) -> exp.Expr:
        return exp.select(exp.convert(1).as_("doc_id"), TEXT.as_("text")).subquery("s")

    def check(self, db: Database) -> None:
        pass


def branches(db: Database, shape: Shape) -> list[tuple[list[str], dict[str, exp.Expr]]]:
    """PostgreSQL's functions branch by model: for the models of each signature, the label
    and the probability of the text by the pipeline ``predict`` runs for the first of them
    (:func:`sqlnb.pipeline.prediction`, asking the model's kind), its name the functions'
    parameter. (The pipeline of any model, :func:`labels`, costs a third more a call.)"""
    groups: dict[str, list[str]] = {}
    for name, signature in shape.models:
        groups.setdefault(signature, []).append(name)
    found: list[tuple[list[str], dict[str, exp.Expr]]] = []
    for names in groups.values():
        entry = catalog.entry(db, names[0])
        one = one_text(db, entry)
        if shape.multi and not multilabel.of(entry):  # one type: a list of one label
            flat = exp.Array(expressions=[one.expressions[0].unalias()]).as_("label")
            one.set("expressions", [flat, one.expressions[1]])
        values: dict[str, exp.Expr] = {
            c: exp.select(exp.column(c, "o")).from_(one.copy().subquery("o")).subquery()
            for c in ("label", "proba")
        }
        found.append((names, values))
    return found


def scalars(db: Database, shape: Shape) -> tuple[exp.Expr, exp.Expr]:
    """The label and the probability of the text sqlnb_text under the model sqlnb_model, any
    model, each checked first (the scalar functions of Spark, PostgreSQL's fallback), in the
    label modes of the database's ``shape``: in a database with a multi-label model the label
    a list (a multi-label model's labels at its threshold, :func:`labels`; another's label as
    a list of one), and a hierarchical model's walk at its stored confidence
    (:func:`sqlnb.labels.walked_rows`) where the engine spells that walk
    (``Dialect.walks_catalog``: Spark's); a hierarchical model beside a multi-label one, or
    where the engine does not, is an error that names it and the engine
    (``sql/labels/flat_models.sql``), not its leaf."""
    one = exp.select(exp.convert(1).as_("doc_id"))
    tokens = text_tokens(db, list(shape.tokenizers))
    lists = db.dialect.name if shape.multi else None
    walks = shape.hierarchy and not shape.multi and db.dialect.walks_catalog
    text = labels(tokens, one, shape, lists=lists, walks=walks)
    found = [scalar(text, c, db.dialect.table_function) for c in ("label", "proba")]
    if shape.hierarchy and not walks:
        engine = db.dialect.name.capitalize()
        why = f"is hierarchical: {engine}'s SQL functions do not walk its tree (sqlnb predict does)"
        flat = templates.select("labels/flat_models.sql")
        found = [_refused(flat, why, value) for value in found]
    return found[0], found[1]


def _flat(shape: Shape, value: exp.Expr) -> exp.Expr:
    """``value``, or where ``shape`` has a multi-label model an error for one: sqlnb_predict's
    rows (doc_id, label, proba) hold one label (refused, not one label and a softmax
    probability)."""
    if not shape.multi:
        return value
    one_label = (
        exp.select("model")
        .from_(multilabel.modes().subquery("g"))
        .where(exp.column("threshold").is_(exp.null()))
    )
    why = "is multi-label: these SQL functions do not serve it yet (sqlnb predict does)"
    return _refused(one_label, why, value)


def _refused(served: exp.Query, why: str, value: exp.Expr) -> exp.Expr:
    """``value``, or an error naming a model that the catalog query ``served`` (its column
    ``model``) leaves out, ``why`` saying what such a model is."""
    return _checked(served.subquery(), why, value)


def table(source: exp.Table, shape: Shape) -> exp.Select:
    """sqlnb_predict's rows (doc_id, label, proba) of the tokens table ``source`` (doc_id,
    word, count) under any text model sqlnb_model; an error for a model that is none."""
    read = Tokens("sqlnb_tokens").render(templates.col("count", quoted=True), source)
    documents = templates.select("input/documents.sql", source=exp.to_table(INPUT))
    scored = labels(read, documents, shape)
    checked = _checked(BASE.node(), "is not a text model", exp.true())
    ok = exp.select(_flat(shape, checked).as_("ok"))
    return (
        exp.select("*")
        .from_(scored.subquery("q"))
        .join(ok.subquery("g"), join_type="CROSS")
        .where(exp.column("ok", "g"))
    )


def scalar(text: exp.Select, column: str, table_function: bool) -> exp.Expr:
    """One column (label or proba) of the text pipeline's one row, checked first."""
    # MAX of the one row: Spark takes only an aggregate as a correlated scalar subquery
    value = exp.select(exp.Max(this=exp.column(column, "q"))).from_(text.subquery("q")).subquery()
    return checked_text(value, table_function)


def checked_text(value: exp.Expr, table_function: bool) -> exp.Expr:
    """``value``, or an error for a model that does not exist or has no tokenizer."""
    tokens = "sqlnb_predict" if table_function else "sqlnb predict"
    why = f"has no tokenizer (it was not trained from text): classify its tokens with {tokens}"
    return _checked(TOKENIZERS.node(), why, value)


def one_text(db: Database, entry: catalog.Entry) -> exp.Select:
    """(label as text, proba) of the text sqlnb_text by the pipeline ``predict`` runs for
    model ``entry``, the model's name the parameter sqlnb_model (:func:`sqlnb.pipeline.
    prediction`, which asks the model's kind)."""
    one = exp.select(exp.convert(1).as_("doc_id"))
    source = _Text("sqlnb_text")
    options: dict[str, Any] = {
        "guard": False,
        "check": False,
        "documents": one,
        "dialect": db.dialect.name,
        "name": MODEL.copy(),  # built with the parameter, not the name: one query per signature
    }
    if multilabel.of(entry):  # the labels at the threshold as one value (sqlnb.multilabel)
        from sqlnb.multilabel import listing  # (here: a module-level import is a 14th layer)

        built = listing.classified(db, entry, source, **options)
    else:
        built = prediction(db, entry, source, **options)
    if db.dialect.lookup == "hash":
        keyed(built)
    label: exp.Expr = exp.cast(exp.column("label", "q"), "VARCHAR")
    if multilabel.of(entry):
        label = exp.column("label", "q")
    return exp.select(
        exp.Max(this=label).as_("label"), exp.Max(this=exp.column("proba", "q")).as_("proba")
    ).from_(built.subquery("q"))


def keyed(tree: exp.Expr) -> None:
    """Each join of ``tree`` to a table the functions look words up in (``ModelTable.lookup``)
    also says the equality of the lookup key (``dialects.lookup_key``: the model parameter and
    the word it is joined on), which the engine's hash index answers in one probe."""
    lookups = {t.name: t.lookup for k in KINDS.values() for t in catalog.tables(k) if t.lookup}
    for join in tree.find_all(exp.Join):
        table, on = join.this, join.args.get("on")
        if not isinstance(table, exp.Table) or table.name not in lookups or on is None:
            continue
        alias = table.alias_or_name
        found = {"model": MODEL.copy()}
        for eq in on.find_all(exp.EQ):
            for side, other in ((eq.this, eq.expression), (eq.expression, eq.this)):
                if isinstance(side, exp.Column) and side.table == alias:
                    found[side.name] = other
        columns = lookups[table.name]
        if all(c in found for c in columns):
            keys = (
                dialects.lookup_key([exp.column(c, alias) for c in columns]),
                dialects.lookup_key([found[c].copy() for c in columns]),
            )
            join.set("on", exp.and_(on, exp.EQ(this=keys[0], expression=keys[1])))


def _checked(needs: exp.Expr, why: str, value: exp.Expr) -> exp.Expr:
    (expression,) = templates.expressions(
        "macros/check.sql", needs=needs, why=why, value=value
    ).values()
    return expression


def text_tokens(db: Database, keys: list[str]) -> exp.Query:
    """The macro's text as tokens, by the model's own tokenizer: with one tokenizer in the
    database, that one; with several, each where the model has it."""
    branches: list[exp.Query] = []
    for key in keys:
        query: exp.Query = Tokenizer.from_dict(json.loads(key)).tokens(
            _Text("sqlnb_text"), db, grouped=False, split=False
        )
        if len(keys) > 1:
            mine = (
                exp.select("model")
                .from_(TOKENIZERS.node())
                .where(exp.column("settings").eq(exp.convert(key)))
            )
            query = exp.select("*").from_(query.subquery("k")).where(MODEL.isin(query=mine))
        branches.append(query)
    if not branches:  # no tokenizer yet: no token (the check refuses every model)
        empty = exp.select(
            exp.convert(1).as_("doc_id"),
            exp.cast(exp.null(), "VARCHAR").as_("word"),
            exp.cast(exp.convert(1), "DOUBLE").as_("count"),
        ).where(exp.false())
        branches.append(empty)
    union = branches[0]
    for branch in branches[1:]:
        union = exp.union(union, branch, distinct=False)
    return union


def _any(part: Callable[[Terms], exp.Expr], transformed: bool) -> exp.Query:
    """``part`` (the base or the parts of the one rows form) of any model, the model the
    parameter ``sqlnb_model``: the rows form of each kind the functions serve, for its terms
    widened to every model of the kind (:meth:`Terms.variants`, each under its condition on the
    model), under the condition that the model is of that kind."""
    branches: list[exp.Query] = []
    for the_kind in SERVED:
        mine = (
            exp.select("model")
            .from_(catalog.MODELS.node())
            .where(exp.column("kind").eq(exp.convert(the_kind.name)))
        )
        terms = the_kind.terms(params.resolved(the_kind, {}))
        variants = [(part(t), when) for t, when in terms.variants(MODEL, transformed=transformed)]
        if len({one.sql() for one, _ in variants}) == 1:  # the same for every model: no condition
            variants = variants[:1]
        found: list[exp.Query] = []
        for one, when in variants:
            assert isinstance(one, exp.Query)
            if when is not None and len(variants) > 1:
                one = exp.select("*").from_(one.subquery("p")).where(when)
            found.append(one)
        union = found[0]
        for other in found[1:]:
            union = exp.union(union, other, distinct=False)
        branches.append(
            exp.select("*").from_(exp.Subquery(this=union, alias="k")).where(MODEL.isin(query=mine))
        )
    every: exp.Query = branches[0]
    for other in branches[1:]:
        every = exp.union(every, other, distinct=False)
    return every


def labels(
    tokens: exp.Query,
    documents: exp.Query,
    shape: Shape,
    lists: str | None = None,
    *,
    walks: bool = False,
) -> exp.Select:
    """(doc_id, label, proba) of the documents, scored from ``tokens`` by the model
    ``sqlnb_model``, whatever its kind, by the rules of its kind (:func:`_any`), with the
    steps of the database's ``shape``; with ``walks`` every model's walk of its tree
    (:func:`sqlnb.labels.walked_rows`), with ``lists`` (a dialect) the label a list, the
    multi-label step after the posterior (``sql/multilabel/rows.sql``, then the step every form
    binds, ``sql/multilabel/listed.sql``)."""
    jll = templates.select(
        "macros/jll.sql",
        jll=joint_of(),
        documents=exp.to_table(DOCUMENTS),
        base=_any(lambda t: t.base(MODEL), shape.transformed),
        parts=_any(lambda t: t.parts(MODEL), shape.transformed),
    )
    steps: list[tuple[str, exp.Query]] = [(INPUT, tokens), (DOCUMENTS, documents)]
    if shape.scaled:
        scaled = templates.select(
            "macros/scaled.sql", jll=exp.to_table(RAW_JLL), steps=catalog.steps()
        )
        steps += [(RAW_JLL, jll), (JLL, scaled)]
    else:
        steps.append((JLL, jll))
    if shape.mapped:
        raw = f"{POSTERIOR}_raw"
        calibrated = templates.select(
            "macros/calibrated.sql",
            posterior=exp.to_table(raw),
            mapped=mapping(None, "k"),
            steps=catalog.steps(),
            rank=ranked("n", "calibrated_proba"),
        )
        steps += [(raw, posterior()), (POSTERIOR, calibrated)]
    else:
        steps.append((POSTERIOR, posterior()))
    final = templates.select("macros/label.sql", posterior=exp.to_table(POSTERIOR))
    if walks:  # labels that form a tree: every model walked (a flat one is one level)
        steps += walked_rows(POSTERIOR)
        final = exp.select("doc_id", "label", "proba").from_(WALKED)
    if lists is not None:  # several labels per document (sqlnb.multilabel): a list
        binary = f"{POSTERIOR}_binary"
        steps.append((binary, multilabel.posterior(JLL)))
        at_least = templates.col("threshold", "g")
        where = exp.GTE(this=templates.col("proba", "b"), expression=at_least)
        listed = templates.expressions(
            templates.for_dialect("multilabel/sorted.sql", lists),
            x=templates.col("label", "c"),
            k=templates.col("class_id", "p"),
            where=where,
        )["listed"]
        grouped = templates.select(
            "multilabel/rows.sql",
            posterior=exp.to_table(POSTERIOR),
            binary=exp.to_table(binary),
            listed=listed,
            modes=multilabel.modes(),
        )
        s = {c: templates.col(c, "s") for c in ("threshold", "labels", "top", "label", "proba")}
        mode = multilabel.step(s["threshold"], s["labels"], s["top"], s)
        final = exp.select(
            templates.col("doc_id", "s").as_("doc_id"),
            *(value.as_(c) for c, value in mode.items()),
        ).from_(grouped.subquery("s"))
    return Pipeline(steps).select(final)
