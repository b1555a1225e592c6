"""Training a multi-label model (``train --multi-label``, :mod:`sqlnb.multilabel`): the text
kind's own counting statement run twice, per label and over all documents (class -1), then
each label's log odds derived into the usual wide table (``sql/multilabel/<kind>_*.sql``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlglot import exp

from sqlnb import catalog, rowchecks, templates, training
from sqlnb.catalog import CLASSES, MODELS, Entry
from sqlnb.classes import stored
from sqlnb.engine import Database, dialects
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Docs, Labels, Source, as_source, labels_for, type_family
from sqlnb.kinds import kind_for, wide
from sqlnb.kinds.base import Kind, Labeled, ModelTable
from sqlnb.kinds.params import resolved
from sqlnb.kinds.text import WORD_COUNTS, TextKind
from sqlnb.kinds.tfidf import Tfidf
from sqlnb.multilabel import MODE, given
from sqlnb.tokenizer import Tokenizer
from sqlnb.training import Training, _named, _no_words, _read


def _refused(params: dict[str, Any], options: dict[str, Any]) -> str | None:
    """The first setting a multi-label training does not take, as its option."""
    for name, value in options.items():
        if value not in (None, (None, None)):
            return "--" + name.replace("_", "-")
    if Tfidf.of(params) is not None:
        return "a document transform (--idf, --sublinear-tf, --doc-norm)"
    for name in ("class_prior", "class_weight"):
        if params.get(name) is not None:
            return "--" + name.replace("_", "-")
    if params.get("alpha") == 0:
        return "--alpha 0 (a label's weights need alpha > 0)"
    return None


def train(
    db: Database,
    data: str | Source,
    labels: str | Labels | None,
    *,
    model: str,
    threshold: float | None = None,
    dialect: str | None = None,
    **others: Any,
) -> Training:
    """Training multi-label model ``model`` from a tokens or docs table and a labels table that
    may give a document several labels, with ``others`` ``kind``, ``hyper`` (the kind's
    hyperparameters) and ``tokenizer`` (from raw text); the other settings of a flat training
    (pruning, select, hierarchy) are refused."""
    kind, hyper, tokenizer = (others.pop(k, None) for k in ("kind", "hyper", "tokenizer"))
    catalog.check_name(model)
    if dialect is None:
        db.backend.check_writable()
    source = as_source(data)
    the_kind = kind_for(kind, source)
    if not isinstance(the_kind, TextKind):
        raise SqlnbError(
            f"--multi-label is for the text kinds (multinomial, bernoulli, complement), not "
            f"{the_kind.name}"
        )
    params = the_kind.prepare(db, source, resolved(the_kind, hyper or {}))
    refused = _refused(params, others)
    if refused is not None:
        raise SqlnbError(
            f"--multi-label trains one binary classifier per label: not with {refused}"
        )
    if isinstance(source, Docs):
        params["tokenizer"] = (tokenizer or Tokenizer()).as_dict()
    elif tokenizer is not None:
        raise SqlnbError("tokenizer options apply to training from text (--docs)")
    the_labels = labels_for(source, labels)
    if the_labels.one_row_each or the_labels.weight is not None:
        raise SqlnbError(
            "--multi-label reads a labels table (--labels) with one row per (document, label), "
            "without sample weights"
        )
    the_labels = replace(the_labels, several=True)
    batch = _read(db, source, the_labels, the_kind, params, dialect=dialect,
                  tokenizer=tokenizer if isinstance(source, Docs) else None)  # fmt: skip
    params.update({MODE: True, **given(True, threshold)})
    if dialect is None:
        _check_sizes(db, batch.labels_query, the_labels.name)
    labeled, everything = _labeled(batch.labels_query)
    replaced = catalog.replaced(db, model, script=dialect is not None)  # read once
    statements = [
        *catalog.replacing(db, model, the_kind, script=dialect is not None, found=replaced or {}),
        *_counted(model, the_kind, batch.inputs, params, labeled, everything),
        *derive(model, the_kind, params),
        *_recorded(model, the_kind, params, batch.label_type),
    ]
    engine = dialects.dialect(dialect) if dialect is not None else db.dialect
    statements = catalog.overwrites(statements, model, engine)
    if isinstance(source, Docs):
        statements += (tokenizer or Tokenizer()).storing()
    return Training(db, model, the_kind, params, statements, _no_words(source, labels),
                    _named(source), (replaced or {}).get(catalog.METHOD), "train",
                    replaced=replaced)  # fmt: skip


def _labeled(labels: exp.Select) -> tuple[Labeled, Labeled]:
    """The labeled documents per label, and every document once under class -1 (the totals)."""
    everything = Labeled(
        templates.select("multilabel/documents.sql", labels=labels.copy()),
        templates.select("multilabel/everything.sql"),
    )
    return Labeled.of(labels), everything


def _counted(
    model: str,
    the_kind: TextKind,
    inputs: dict[str, exp.Query],
    params: dict[str, Any],
    labeled: Labeled,
    everything: Labeled,
) -> list[exp.Expr]:
    """The statements that count: documents per label, the kind's counts per label and over
    every document (class -1), and the number of documents."""
    return [
        templates.render("train/classes.sql", model=model, labeled=labeled.rows),
        *the_kind.count(model, inputs, labeled, params),
        *the_kind.count(model, inputs, everything, params),
        templates.render("multilabel/n_docs.sql", model=model, documents=everything.labels),
    ]


def _recorded(
    model: str, the_kind: TextKind, params: dict[str, Any], label_type: str
) -> list[exp.Expr]:
    """The catalog row (and the tokenizer of a model trained from raw text)."""
    statements = [catalog.record(model, the_kind, params, label_type)]
    if params.get("tokenizer"):
        statements.append(Tokenizer.from_dict(params["tokenizer"]).record(model))
    return statements


def _check_sizes(db: Database, labels: exp.Select, name: str) -> None:
    """Refuse a label on every training document: its binary classifier has no other side."""
    query = exp.select(
        exp.func("COUNT", exp.Distinct(expressions=[exp.column("doc_id")])).as_("n"),
    ).from_(labels.subquery("l"))
    n = int(db.fetch(query)[0][0])
    per = exp.select(exp.column("label"), exp.func("COUNT", exp.Star()).as_("k"))
    per = per.from_(labels.subquery("l")).group_by(exp.column("label"))
    every = [r[0] for r in db.fetch(per) if int(r[1]) == n]
    if every:
        raise SqlnbError(
            f"labels table {name!r} gives label {every[0]!r} to every document: --multi-label "
            "needs documents without each label"
        )


def derive(model: str, the_kind: TextKind, params: dict[str, Any]) -> list[exp.Expr]:
    """The prior (each label's log odds before the words), the wide weights (each label's
    minus the rest's, from the counts per label and the totals) and the per-label base."""
    counts = exp.select("class_id", "word", "count").from_(WORD_COUNTS.node())
    mine = exp.column("model").eq(exp.convert(model))
    totals = exp.select("word", "count").from_(WORD_COUNTS.node())
    total = exp.column("class_id").eq(exp.convert(-1))
    counts = counts.where(mine, exp.column("class_id").eq(exp.convert(-1)).not_())
    totals = totals.where(mine.copy(), total, exp.column("word").is_(exp.null()).not_())
    n_all = templates.select("multilabel/all_docs.sql", model=model).subquery()
    smoothing = {**the_kind.smoothing(params), "n_all": n_all}
    names = {"w": f"multilabel/{the_kind.name}_weight.sql", "a": "multilabel/bernoulli_absent.sql"}

    def weight(name: str) -> wide.Weight:
        return lambda bindings: wide.formula(name, {**bindings, **smoothing})

    families = {prefix: weight(names[prefix]) for prefix in the_kind.weights}
    n_docs = exp.column("n_docs", "c")
    learned = params.get("fit_prior", True)
    prior_alpha = templates.number(float(params.get("prior_alpha") or 0.0))
    rest = exp.Sub(this=n_all.copy(), expression=n_docs.copy())
    weight_, total_ = (
        (
            exp.Add(this=n_docs, expression=prior_alpha),
            exp.Add(this=rest, expression=prior_alpha.copy()),
        )
        if learned
        else (templates.number(1.0), templates.number(1.0))
    )
    return [
        templates.render(
            "train/prior.sql", model=model, weight=weight_, total=total_, classes=stored(model)
        ),
        wide.derive(model, families, counts, totals),
        the_kind.derive_base(model),
    ]


def appending(
    db: Database,
    data: str | Source,
    labels: str | Labels | None,
    *,
    model: str,
    dialect: str | None = None,
) -> Training:
    """Appending to model ``model``: :func:`append` for a multi-label one, else
    :func:`sqlnb.training.append`."""
    if dialect is None:
        db.trusted(writing=True)  # before reading the model it adds to
    current = catalog.entry(db, model)
    if not current.params.get(MODE):
        return training.append(db, data, labels, model=model, dialect=dialect)
    if dialect is None:
        db.backend.check_writable()
    return append(db, data, labels, current, dialect=dialect)


def _copied(table: ModelTable, source: str, model: str) -> exp.Expr:
    """Insert the rows of model ``source`` in ``table`` as model ``model``'s."""
    kept = [exp.column(c) for c in table.columns]
    where = exp.column("model").eq(exp.convert(source))
    query = exp.select(exp.convert(model).as_("model"), *kept).from_(table.node()).where(where)
    return exp.insert(query, table.node(), columns=["model", *table.columns])


def append(
    db: Database,
    data: str | Source,
    labels: str | Labels | None,
    current: Entry,
    *,
    dialect: str | None = None,
) -> Training:
    """Adding a batch of labeled documents to multi-label model ``current``: the batch's
    counts per label and totals added to the model's (new labels may appear), as training on
    the union would count them; then derived again."""
    model, the_kind, params = current.name, current.kind, dict(current.params)
    source = as_source(data)
    kind_for(the_kind.name, source)
    assert isinstance(the_kind, TextKind)
    the_labels = replace(labels_for(source, labels), several=True)
    batch = _read(db, source, the_labels, the_kind, params, dialect=dialect)
    if type_family(batch.label_type) != type_family(current.label_type):
        raise SqlnbError(
            f"the new labels are {batch.label_type}, but model {model!r} was "
            f"trained on {current.label_type} labels"
        )
    staging, merged = model + "\x1fbatch", model + "\x1fmerged"
    counts = (CLASSES, WORD_COUNTS)
    labeled, everything = _labeled(batch.labels_query)
    sort_key: exp.Expr = exp.column("label", table="g")
    if type_family(current.label_type) != "text":
        sort_key = exp.cast(
            sort_key, exp.DataType.build(current.label_type, dialect=templates.SOURCE_DIALECT)
        )
    names = {"model": model, "batch": staging, "merged": merged}
    statements: list[exp.Expr] = [
        *catalog.creates(db, the_kind, script=dialect is not None),
        *catalog.deletes(staging, counts),
        *catalog.deletes(merged, counts),
        *_counted(staging, the_kind, batch.inputs, params, labeled, everything),
        templates.render("append/classes.sql", **names, sort_key=sort_key),
        templates.render("append/word_counts.sql", **names),
        templates.render("multilabel/append_totals.sql", **names),
        *catalog.deletes(model, (MODELS, *counts, *catalog.derived(the_kind))),
        *catalog.deletes(staging, counts),
    ]
    statements += [_copied(table, merged, model) for table in counts]  # the merged counts
    statements += catalog.deletes(merged, counts)
    statements += derive(model, the_kind, params)
    statements += _recorded(model, the_kind, params, batch.label_type)
    return Training(db, model, the_kind, params, statements, reads=_named(source),
                    command="append")  # fmt: skip


def parameters(
    model: str, the_kind: Kind, params: dict[str, Any], label_type: str, n_classes: int
) -> list[exp.Expr]:
    """:func:`sqlnb.training.parameters` (a model file's derived tables and catalog row), for a
    multi-label model from its labels' counts and totals."""
    if not params.get(MODE):
        return training.parameters(model, the_kind, params, label_type, n_classes)
    assert isinstance(the_kind, TextKind)
    return [*derive(model, the_kind, params), *_recorded(model, the_kind, params, label_type)]


def flaws(
    db: Database, table: ModelTable, staged: exp.Table, n_classes: int, params: dict[str, Any]
) -> str | None:
    """:func:`sqlnb.catalog.flaws` of a model file's ``table``; for a multi-label model's word
    counts, of its labels' rows and of its totals' (class -1, the documents under a NULL word)
    each as a class of its own."""
    if not params.get(MODE) or table is not WORD_COUNTS:
        return rowchecks.flaws(db, table, staged, n_classes)
    total = exp.column("class_id").eq(exp.convert(-1))
    labels = exp.select("*").from_(staged.copy()).where(exp.or_(total.not_(), _null("class_id")))
    totals = exp.select(
        exp.convert(0).as_("class_id"),
        exp.func("COALESCE", exp.column("word"), exp.convert("")).as_("word"),
        exp.column("count"),
    ).from_(staged.copy())
    totals = totals.where(total.copy())
    return rowchecks.flaws(db, table, labels.subquery("l"), n_classes) or rowchecks.flaws(
        db, table, totals.subquery("t"), 1
    )


def _null(name: str) -> exp.Expr:
    return exp.column(name).is_(exp.null())
