"""SQL functions in the database, so that any client can classify without sqlnb:

    SELECT id, sqlnb_classify('spam', body), sqlnb_proba('spam', body) FROM emails;
    SELECT * FROM sqlnb_predict('spam', 'new_tokens');

Their form is the engine's (``Dialect.functions``), and every form asks the model's kind how
it scores: DuckDB's macros score a text with list functions over the model's lookup row
(:mod:`sqlnb.lists`); PostgreSQL's PL/pgSQL functions branch by model, each branch the
pipeline ``predict`` runs for it (:func:`_branches`); SQLite's registered Python functions
run that pipeline for the model too (:func:`register_sqlite`); Spark's SQL functions run the
pipeline of any model, each kind's parts for its models (:func:`_labels`, :func:`_by_kind`).
They are rebuilt, in the transaction of the write, when the database's :class:`Shape`
changes (its tokenizers, which steps its models need: sqlnb_functions records it) or sqlnb's
version does. A write never builds DuckDB's lookup rows: it deletes the written model's, and
the macros build the row of a model without one in each query until :func:`store` (``sqlnb
functions``) stores it. An unknown model name, and text for a model trained from a tokens
table (which has no tokenizer), are errors that name the model.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlglot import exp

from sqlnb import cache, catalog, dictionaries, lists, templates
from sqlnb.catalog import TOKENIZERS
from sqlnb.engine import Database, dialects, functions
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Docs, Tokens
from sqlnb.kinds import KINDS
from sqlnb.kinds.base import Kind
from sqlnb.kinds.text import BASE
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
from sqlnb.shape import MODEL, TEXT, TOKENS_ARG, Shape, missing
from sqlnb.tokenizer import Tokenizer, register_functions
from sqlnb.version import __version__

RECORD = "sqlnb_functions"
INPUT = "sqlnb_input"


@dataclass(frozen=True)
class _Text(Docs):
    """The macro's text argument as a one-row docs table."""

    def node(self) -> exp.Expr:
        return exp.select(exp.convert(1).as_("doc_id"), TEXT.as_("text")).subquery("s")

    def check(self, db: Database) -> None:
        pass


def refresh(db: Database, model: str | None = None) -> None:
    """Keep the SQL functions current after a write of ``model`` (a training, append, retune,
    import, calibration or drop; inside its transaction): rewrite them if the database's
    :class:`Shape` changed (or sqlnb did), else leave them. On DuckDB the model's stored
    lookup row goes (:func:`lists.forget`; the macros build it in each query until ``sqlnb
    functions`` stores it again: a write builds none); on ClickHouse its dictionary rows are
    written again."""
    # relation_type, not exists(): a failed probe would abort PostgreSQL's transaction
    if db.dialect.functions is None or db.relation_type(TOKENIZERS.node()) is None:
        return
    if db.dialect.functions_check_tables and db.relation_type(BASE.node()) is None:
        return  # the engine checks a function's tables when it is created: no text model yet
    record = exp.to_table(RECORD)
    built: list[tuple[Any, ...]] = []
    if db.relation_type(record) is not None:
        built = db.fetch(exp.select("version", "settings").from_(record))
    other = any(version != __version__ for version, _ in built)  # rows another sqlnb wrote
    for statement in lists.forget(db, model, everything=other):
        db.execute(statement)
    keys = Shape.of(db).keys
    wanted: list[tuple[str, str | None]] = [(__version__, k) for k in sorted(keys)]
    if built and sorted(built, key=str) == sorted(wanted or [(__version__, None)], key=str):
        for row in _rows(db, None if model is None else [model]):
            db.execute(row)
        return
    kinds = [k for k in KINDS.values() if k.functions]  # the tables they read, as this sqlnb
    upgrades = {s.sql(): s for k in kinds for s in k.upgrades()}  # keeps them (once each)
    for statement in (*catalog.creates(db, *kinds), *upgrades.values()):
        db.execute(statement)
    # the functions' text names the schema (PostgreSQL) or the database (ClickHouse)
    where = db.backend.schema or ""
    if db.dialect.functions == "clickhouse":
        where = dictionaries.database(db)
    serves = keys  # ClickHouse's functions are the server's: for every database's models
    if db.dialect.functions == "clickhouse":
        serves = dictionaries.shared(db, keys)
    key = f"macros {db.dialect.name} {where} {cache.source_stamp()} {json.dumps([keys, serves])}"
    texts = cache.load(key)  # the same for every database: built once per machine
    if not (isinstance(texts, list) and all(isinstance(t, str) for t in texts)):
        texts = [
            text
            for s in statements(db, keys, serves)
            for text in (db.texts(s) if isinstance(s, exp.Expr) else [s])
        ]
        cache.store(key, texts)
    if db.dialect.functions == "clickhouse":  # the tables, then their rows
        for text in texts:
            db.execute(text)
        for row in _rows(db):
            db.execute(row)
        return
    for text in texts:
        db.execute(text)


def store(db: Database) -> list[str]:
    """Store the lookup row of each DuckDB text model that has none (``sqlnb functions``), so
    that the macros read it instead of building it in each query, and rebuild the macros
    without that step; returns the models stored. Other engines' functions need nothing."""
    if db.dialect.functions != "macros" or db.relation_type(TOKENIZERS.node()) is None:
        return []
    with db.transaction():
        refresh(db)  # first: rows another sqlnb stored go
        models = missing(db)
        for statement in lists.lookups(db, models):
            db.execute(statement)
        refresh(db)  # the macros without the step that builds a row
    return models


def store_functions(connection: Any) -> list[str]:
    """``sqlnb functions`` on a connection: :func:`store`."""
    return store(Database.connect(connection))


def _rows(db: Database, models: list[str] | None = None) -> list[exp.Expr | str]:
    """ClickHouse's dictionary rows of ``models`` (default: every text model), written again."""
    if db.dialect.functions == "clickhouse":
        return dictionaries.rows(db, models)
    return []


def statements(
    db: Database, keys: list[str], built: list[str] | None = None
) -> list[exp.Expr | str]:
    """The statements that (re)write the three macros for the :class:`Shape` of ``keys`` (or
    of ``built``, ClickHouse's: every database's, :func:`dictionaries.shared`) and then record
    ``keys`` (last: on an engine without transactions a rebuild that fails half-way is not
    recorded, so the next write builds them again)."""
    shape = Shape.recorded(keys if built is None else built)
    record = exp.to_table(RECORD)
    rows = [
        exp.select(exp.convert(__version__).as_("version"), exp.convert(k).as_("settings"))
        for k in keys
    ] or [exp.select(exp.convert(__version__).as_("version"), exp.null().as_("settings"))]
    recorded: exp.Query = rows[0]
    for row in rows[1:]:
        recorded = exp.union(recorded, row, distinct=False)
    form, table_function = db.dialect.functions, db.dialect.table_function
    records: list[exp.Expr | str] = [
        templates.render("catalog/create_functions.sql"),
        exp.delete(record, where=exp.true()),
        exp.insert(recorded, record, columns=["version", "settings"]),
    ]
    if form == "clickhouse":  # lambdas over dictionaries: see sqlnb.dictionaries
        return [*dictionaries.statements(db, shape), *records]
    if form == "macros":  # list functions: see sqlnb.lists
        listed = lists.listed(shape)
        label, proba = (_checked_text(listed[c], table_function) for c in ("label", "proba"))
    else:
        one = exp.select(exp.convert(1).as_("doc_id"))
        text = _labels(_tokens(db, list(shape.tokenizers)), one, shape)
        label, proba = (_scalar(text, c, table_function) for c in ("label", "proba"))
    source = functions.table_argument(form, TOKENS_ARG)
    tokens = Tokens("sqlnb_tokens").render(templates.col("count", quoted=True), source)
    documents = templates.select("input/documents.sql", source=exp.to_table(INPUT))
    table = _labels(tokens, documents, shape)
    ok = exp.select(_checked(BASE.node(), "is not a text model", exp.true()).as_("ok"))
    checked_table = (
        exp.select("*")
        .from_(table.subquery("q"))
        .join(ok.subquery("g"), join_type="CROSS")
        .where(exp.column("ok", "g"))
    )
    if form == "postgres":
        by_model = _branches(db, shape)
        return [*functions.postgres(db, label, proba, checked_table, by_model), *records]
    if form == "spark":  # no table argument: IDENTIFIER() takes only a constant
        return [*functions.spark(db, label, proba), *records]
    return [
        *lists.made(db),  # the table of stored lookup rows, before the macros that read it
        templates.render("macros/classify.sql", body=label),
        templates.render("macros/proba.sql", body=proba),
        templates.render("macros/predict.sql", body=checked_table.subquery("b")),
        *records,
    ]


def _branches(db: Database, shape: Shape) -> list[tuple[list[str], dict[str, exp.Expr]]]:
    """PostgreSQL's functions branch by model: for the models of each signature, the label
    and the probability of the text by the pipeline ``predict`` runs for the first of them
    (:func:`sqlnb.pipeline.prediction`, asking the model's kind), its name the functions'
    parameter. (The pipeline of any model, :func:`_labels`, costs a third more a call.)"""
    groups: dict[str, list[str]] = {}
    for name, signature in shape.models:
        groups.setdefault(signature, []).append(name)
    found = []
    for names in groups.values():
        one = _one_text(db, catalog.entry(db, names[0]))
        values: dict[str, exp.Expr] = {
            c: exp.select(exp.column(c, "o")).from_(one.copy().subquery("o")).subquery()
            for c in ("label", "proba")
        }
        found.append((names, values))
    return found


def _scalar(text: exp.Select, column: str, table_function: bool) -> exp.Expr:
    """One column (label or proba) of the text pipeline's one row, checked first."""
    # MAX of the one row: Spark takes only an aggregate as a correlated scalar subquery
    value = exp.select(exp.Max(this=exp.column(column, "q"))).from_(text.subquery("q")).subquery()
    return _checked_text(value, table_function)


def _checked_text(value: exp.Expr, table_function: bool) -> exp.Expr:
    """``value``, or an error for a model that does not exist or has no tokenizer."""
    tokens = "sqlnb_predict" if table_function else "sqlnb predict"
    why = f"has no tokenizer (it was not trained from text): classify its tokens with {tokens}"
    return _checked(TOKENIZERS.node(), why, value)


def register_sqlite(connection: Any) -> None:
    """Give a sqlite3 connection ``sqlnb_classify(model, text)`` and ``sqlnb_proba(model,
    text)``: SQLite has no SQL-defined functions, so these are Python functions that run, for
    their one text, the pipeline ``predict`` runs for the model (:func:`_one_text`, built when
    the model is first used, and again when its catalog row or calibration changes; set-based
    queries stay faster: ``sqlnb predict --docs``). One query gives a text's label and
    probability together: the second of the pair in a row takes them from the first, so that a
    row never holds one model's label and a retrained model's probability. An unknown model,
    or one without a tokenizer, is an error (SQLite reports a Python function's error as
    "user-defined function raised exception"; the message goes to stderr with
    ``sqlite3.enable_callback_tracebacks(True)``)."""
    db = Database.connect(connection)
    if not db.dialect.python_functions:
        raise SqlnbError("register_sqlite takes a sqlite3 connection")
    register_functions(db)  # now: not while a statement runs, when a query is built
    placeholders = {n: exp.Placeholder(this=n) for n in (MODEL.name, TEXT.name)}
    refusal = functions.raising(_checked_text(exp.null(), False), None)
    refused = db.sql(functions.bound(exp.select(refusal, refusal.copy()), placeholders))
    method: exp.Expr = exp.null()
    if db.relation_type(catalog.CALIBRATION.node()) is not None:
        method = (
            exp.select(exp.Min(this=exp.column("method")))
            .from_(catalog.CALIBRATION.node())
            .where(exp.column("model").eq(MODEL.copy()))
            .subquery()
        )
    state = exp.select("kind", "params", "trained_at", method).from_(catalog.MODELS.node())
    state_sql = db.sql(functions.bound(state.where(exp.column("model").eq(MODEL)), placeholders))
    built: dict[str, tuple[Any, str]] = {}  # model -> (its state, its query)
    pending: dict[int, tuple[Any, Any]] = {}  # what the pair's other function is to return

    def query_for(model: str) -> str:
        found = connection.execute(state_sql, {MODEL.name: model}).fetchone() if model else None
        the_kind = KINDS.get(found[0]) if found is not None else None
        if found is None or the_kind is None or not the_kind.functions:
            return refused  # its error
        if not json.loads(found[1]).get("tokenizer"):
            return refused
        if model not in built or built[model][0] != found:
            one = _one_text(db, catalog.entry(db, model))
            built[model] = (found, db.sql(functions.bound(one, placeholders)))
        return built[model][1]

    def raise_error(message: str) -> None:
        raise SqlnbError(message)

    def scored(position: int, model: str, body: str | None) -> Any:
        key = (model, body)
        if position in pending and pending[position][0] == key:
            return pending.pop(position)[1]
        values = {MODEL.name: model, TEXT.name: body}
        row = connection.execute(query_for(model), values).fetchone()
        pending.clear()
        pending[1 - position] = (key, row[1 - position])
        return row[position]

    db.register_function("sqlnb_raise", raise_error, 1)
    for position, name in enumerate(("sqlnb_classify", "sqlnb_proba")):
        db.register_function(name, functools.partial(scored, position), 2)


def _one_text(db: Database, entry: catalog.Entry) -> exp.Select:
    """(label as text, proba) of the text sqlnb_text by the pipeline ``predict`` runs for
    model ``entry``, the model's name the parameter sqlnb_model (:func:`sqlnb.pipeline.
    prediction`, which asks the model's kind)."""
    one = exp.select(exp.convert(1).as_("doc_id"))
    source = _Text("sqlnb_text")
    built = prediction(
        db, entry, source, guard=False, check=False, documents=one, dialect=db.dialect.name
    )
    for node in list(built.find_all(exp.EQ)):  # the model's name -> the parameter
        for side, other in ((node.this, node.expression), (node.expression, node.this)):
            if (
                isinstance(side, exp.Column)
                and side.name == "model"
                and isinstance(other, exp.Literal)
                and other.this == entry.name
            ):
                other.replace(MODEL.copy())
    if db.dialect.lookup == "hash":
        _keyed(built)
    label = exp.cast(exp.column("label", "q"), "VARCHAR")
    return exp.select(
        exp.Max(this=label).as_("label"), exp.Max(this=exp.column("proba", "q")).as_("proba")
    ).from_(built.subquery("q"))


def _keyed(tree: exp.Expr) -> None:
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


def _checked(needs: exp.Table, why: str, value: exp.Expr) -> exp.Expr:
    (expression,) = templates.expressions(
        "macros/check.sql", needs=needs, why=why, value=value
    ).values()
    return expression


def _tokens(db: Database, keys: list[str]) -> exp.Query:
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


def _by_kind(part: Callable[[Kind], exp.Expr]) -> exp.Query:
    """``part`` of each kind the functions serve, for the model ``sqlnb_model`` if it is of
    that kind: the kind is asked for its own base and parts (:meth:`Kind.any_parts`)."""
    branches: list[exp.Query] = []
    for the_kind in KINDS.values():
        if the_kind.functions:
            mine = (
                exp.select("model")
                .from_(catalog.MODELS.node())
                .where(exp.column("kind").eq(exp.convert(the_kind.name)))
            )
            found = exp.Subquery(this=part(the_kind), alias="k")
            branches.append(exp.select("*").from_(found).where(MODEL.isin(query=mine)))
    union: exp.Query = branches[0]
    for other in branches[1:]:
        union = exp.union(union, other, distinct=False)
    return union


def _labels(tokens: exp.Query, documents: exp.Query, shape: Shape) -> exp.Select:
    """(doc_id, label, proba) of the documents, scored from ``tokens`` by the model
    ``sqlnb_model``, whatever its kind, by the rules of its kind (:func:`_by_kind`), with the
    steps of the database's ``shape``."""
    input_tokens = exp.select("*").from_(INPUT)
    jll = templates.select(
        "macros/jll.sql",
        jll=joint_of(),
        documents=exp.to_table(DOCUMENTS),
        base=_by_kind(lambda k: k.base(MODEL)),
        parts=_by_kind(lambda k: k.any_parts(MODEL, input_tokens.copy(), shape.transformed)),
    )
    steps: list[tuple[str, exp.Query]] = [(INPUT, tokens), (DOCUMENTS, documents)]
    if shape.temperature:
        scaled = templates.select("macros/temperature.sql", jll=exp.to_table(RAW_JLL))
        steps += [(RAW_JLL, jll), (JLL, scaled)]
    else:
        steps.append((JLL, jll))
    if shape.mapped:
        raw = f"{POSTERIOR}_raw"
        calibrated = templates.select(
            "macros/calibrated.sql",
            posterior=exp.to_table(raw),
            mapped=mapping(None, "k"),
            rank=ranked("n", "calibrated_proba"),
        )
        steps += [(raw, posterior()), (POSTERIOR, calibrated)]
    else:
        steps.append((POSTERIOR, posterior()))
    final = templates.select("macros/label.sql", posterior=exp.to_table(POSTERIOR))
    return Pipeline(steps).select(final)
