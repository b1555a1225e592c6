"""SQL functions in the database (DuckDB macros, PostgreSQL and Spark functions), so that any
client can classify without sqlnb:

    SELECT id, sqlnb_classify('spam', body), sqlnb_proba('spam', body) FROM emails;
    SELECT * FROM sqlnb_predict('spam', 'new_tokens');

Each macro holds one prediction pipeline for every text model, the model a parameter: the
scoring reads the model's rows (how a word counts, its weights, its base), so training a model
does not change the macros. Only the tokenizer must be written into them (DuckDB compiles a
regular expression only when it is a constant): the macros tokenize with each distinct
tokenizer of the database's text models, chosen by the model's row of sqlnb_tokenizers, and
are rewritten, in the training's transaction, when a training brings a tokenizer they do not
have (sqlnb_functions records the ones they do). An unknown model name, and text for a model
trained from a tokens table (which has no tokenizer), are errors that name the model.

PostgreSQL's and Spark's functions (and SQLite's registered ones) run the set-based prediction
pipeline on their one text. DuckDB's sqlnb_classify and sqlnb_proba score a text with list
functions instead (:func:`_listed`), in one projection that DuckDB runs in parallel over the
distinct texts of a query: the pipeline, decorrelated, grouped every token row by its text.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from sqlglot import exp

from sqlnb import cache, templates
from sqlnb.catalog import TOKENIZERS
from sqlnb.engine import Database, functions
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Docs, Tokens
from sqlnb.kinds import wide
from sqlnb.kinds.text import BASE, any_base, any_parts
from sqlnb.pipeline import (
    DOCUMENTS,
    JLL,
    POSTERIOR,
    RAW_JLL,
    Pipeline,
    joint,
    joint_of,
    mapping,
    normalised,
    posterior,
)
from sqlnb.tokenizer import Tokenizer
from sqlnb.version import __version__

MODEL, TEXT, TOKENS_ARG = (exp.column(n) for n in (functions.MODEL, "sqlnb_text", "sqlnb_tokens"))
RECORD = "sqlnb_functions"
INPUT = "sqlnb_input"


@dataclass(frozen=True)
class _Text(Docs):
    """The macro's text argument as a one-row docs table."""

    def node(self) -> exp.Expr:
        return exp.select(exp.convert(1).as_("doc_id"), TEXT.as_("text")).subquery("s")

    def check(self, db: Database) -> None:
        pass


def refresh(db: Database) -> None:
    """Keep the macros current after a training, append, retune, import or drop (inside its
    transaction): rewrite them if the database's tokenizers changed, else leave them."""
    # relation_type, not exists(): a failed probe would abort PostgreSQL's transaction
    if db.dialect.functions is None or db.relation_type(TOKENIZERS.node()) is None:
        return
    if db.dialect.functions_check_tables and db.relation_type(BASE.node()) is None:
        return  # the engine checks a function's tables when it is created: no text model yet
    keys = [r[0] for r in db.fetch(_distinct_tokenizers())]
    record = exp.to_table(RECORD)
    wanted = sorted((__version__, k) for k in keys) or [(__version__, None)]
    if db.relation_type(record) is not None:
        built = db.fetch(exp.select("version", "settings").from_(record))
        if sorted(built, key=str) == sorted(wanted, key=str):
            return
    where = db.backend.schema or ""  # the functions' text names it (PostgreSQL)
    key = f"macros {db.dialect.name} {where} {cache.source_stamp()} {json.dumps(keys)}"
    texts = cache.load(key)  # the same for every database: built once per machine
    if not (isinstance(texts, list) and all(isinstance(t, str) for t in texts)):
        texts = [
            text
            for s in statements(db, keys)
            for text in (db.texts(s) if isinstance(s, exp.Expr) else [s])
        ]
        cache.store(key, texts)
    for text in texts:
        db.execute(text)


def _distinct_tokenizers() -> exp.Select:
    return exp.select("settings").distinct().from_(TOKENIZERS.node()).order_by("settings")


def statements(db: Database, keys: list[str]) -> list[exp.Expr | str]:
    """The statements that (re)write the three macros for the tokenizers ``keys`` (canonical
    JSON, see :meth:`Tokenizer.key`) and record them."""
    record = exp.to_table(RECORD)
    rows = [
        exp.select(exp.convert(__version__).as_("version"), exp.convert(k).as_("settings"))
        for k in keys
    ] or [exp.select(exp.convert(__version__).as_("version"), exp.null().as_("settings"))]
    recorded: exp.Query = rows[0]
    for row in rows[1:]:
        recorded = exp.union(recorded, row, distinct=False)
    form, table_function = db.dialect.functions, db.dialect.table_function
    if form == "macros":  # list functions: see _listed
        listed = _listed(keys)
        label, proba = (_checked_text(listed[c], table_function) for c in ("label", "proba"))
    else:
        text = _labels(_tokens(db, keys), exp.select(exp.convert(1).as_("doc_id")))
        label, proba = (_scalar(text, c, table_function) for c in ("label", "proba"))
    source = functions.table_argument(form, TOKENS_ARG)
    tokens = Tokens("sqlnb_tokens").render(templates.col("count", quoted=True), source)
    documents = templates.select("input/documents.sql", source=exp.to_table(INPUT))
    table = _labels(tokens, documents)
    ok = exp.select(_checked(BASE.node(), "is not a text model", exp.true()).as_("ok"))
    checked_table = (
        exp.select("*")
        .from_(table.subquery("q"))
        .join(ok.subquery("g"), join_type="CROSS")
        .where(exp.column("ok", "g"))
    )
    records: list[exp.Expr | str] = [
        templates.render("catalog/create_functions.sql"),
        exp.delete(record),
        exp.insert(recorded, record, columns=["version", "settings"]),
    ]
    if form == "postgres":
        return [*records, *functions.postgres(db, label, proba, checked_table)]
    if form == "spark":  # no table argument: IDENTIFIER() takes only a constant
        return [*records, *functions.spark(db, label, proba)]
    return [
        *records,
        templates.render("macros/classify.sql", body=label),
        templates.render("macros/proba.sql", body=proba),
        templates.render("macros/predict.sql", body=checked_table.subquery("b")),
    ]


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


def _listed(keys: list[str]) -> dict[str, exp.Expr]:
    """DuckDB's label and proba of the text sqlnb_text under the model sqlnb_model, as scalar
    subqueries over the model's lookup row (``sql/macros/lookup.sql``): the text is tokenized
    into a list (:meth:`Tokenizer.words`, by the model's tokenizer among ``keys``), its words
    looked up and scored with list functions (``sql/macros/scores.sql``), and the scores
    normalised (``sql/macros/posterior.sql``). Without a join or an aggregate over its words,
    DuckDB runs a query over many texts as one projection of its distinct texts, in parallel."""

    def bucket(word: exp.Expr, buckets: exp.Expr) -> exp.Expr:
        return templates.expressions("macros/bucket.sql", word=word, buckets=buckets)["bucket"]

    row_block, sign = wide.signed_block()
    lookup = templates.select(
        "macros/lookup.sql",
        model=MODEL,
        weight=wide.pick("w"),
        block=wide.block_of(templates.col("class_id", "c")),
        row_block=row_block,
        sign=sign,
        bucket=bucket(templates.col("word", "w"), templates.col("buckets", "z")),
    )
    words: list[tuple[str, exp.Expr]] = [
        (key, Tokenizer.from_dict(json.loads(key)).words(TEXT)) for key in keys
    ]
    tokens: exp.Expr = exp.cast(exp.null(), exp.DataType.build("VARCHAR[]", dialect="duckdb"))
    if len(words) == 1:
        tokens = words[0][1]
    elif words:  # the model's own tokenizer
        tokens = exp.Case()
        for key, listed in words:
            tokens = tokens.when(templates.col("settings", "l").eq(exp.convert(key)), listed)

    def terms(found: exp.Expr, score: str) -> exp.Expr:
        t = templates.expressions("macros/terms.sql", found=found)
        return joint(t["base"], t["n_zero"], t[score])

    distinct_words = exp.func("MAP_KEYS", exp.column("h"))
    (jll,) = templates.expressions(
        "macros/scores.sql",
        tokens=tokens,
        bucket=bucket(exp.column("t"), templates.col("buckets", "l")),
        counted=terms(exp.column("found"), "counted"),
        transformed=terms(distinct_words, "transformed"),
    ).values()
    top, total = exp.column("top"), exp.column("total")
    # temperature scaling: softmax(jll / T), T 1 for a model without
    scaled = exp.func(
        "LIST_TRANSFORM",
        jll,
        exp.Lambda(
            this=exp.Div(this=exp.column("v"), expression=templates.col("temperature", "l")),
            expressions=[exp.to_identifier("v")],
        ),
    )
    posterior = templates.expressions(
        "macros/posterior.sql",
        jll=scaled,
        term=normalised(exp.column("v"), top, exp.null())["term"],
        proba=normalised(top, top, total)["proba"],
        each=normalised(exp.column("v"), top, total)["proba"],
    )
    # sigmoid or isotonic: the label and probability of the calibrated list
    calibrated = templates.expressions(
        "macros/calibrated_lists.sql",
        probas=posterior["probas"],
        mapped=mapping(None, given={n: exp.column(n) for n in ("p", "lo", "a", "b", "method")}),
    )
    chosen = {
        name: exp.Case(
            ifs=[exp.If(this=templates.col("calibrated", "l"), true=calibrated[name])],
            default=posterior[name],
        )
        for name in ("label", "proba")
    }
    return {
        name: exp.select(value).from_(lookup.subquery("l", copy=False)).subquery()
        for name, value in chosen.items()
    }


def register_sqlite(connection: Any) -> None:
    """Give a sqlite3 connection ``sqlnb_classify(model, text)`` and ``sqlnb_proba(model,
    text)``: SQLite has no SQL-defined functions, so these are Python functions that run the
    same prediction query as DuckDB's macros for their one text (set-based queries stay
    faster: ``sqlnb predict --docs``). One query gives a text's label and probability
    together: the second of the pair in a row takes them from the first, so that a row never
    holds one model's label and a retrained model's probability. They know the tokenizers the
    database has when they are registered: register again after training with new tokenizer
    settings. An unknown model is an error (SQLite reports a Python function's error as
    "user-defined function raised exception"; the message goes to stderr with
    ``sqlite3.enable_callback_tracebacks(True)``)."""
    db = Database.connect(connection)
    if not db.dialect.python_functions:
        raise SqlnbError("register_sqlite takes a sqlite3 connection")
    keys = []
    if db.relation_type(TOKENIZERS.node()) is not None:
        keys = [r[0] for r in db.fetch(_distinct_tokenizers())]
    text = _labels(_tokens(db, keys), exp.select(exp.convert(1).as_("doc_id")))
    label = functions.raising(_checked_text(exp.Max(this=exp.column("label", "q")), False), None)
    both = exp.select(label.as_("label"), exp.Max(this=exp.column("proba", "q")).as_("proba"))
    placeholders = {n: exp.Placeholder(this=n) for n in (MODEL.name, TEXT.name)}
    query = db.sql(functions.bound(both.from_(text.subquery("q")), placeholders))
    pending: dict[int, tuple[Any, Any]] = {}  # what the pair's other function is to return

    def raise_error(message: str) -> None:
        raise SqlnbError(message)

    def scored(position: int, model: str, body: str | None) -> Any:
        key = (model, body)
        if position in pending and pending[position][0] == key:
            return pending.pop(position)[1]
        values = {MODEL.name: model, TEXT.name: body}
        row = connection.execute(query, values).fetchone()
        pending.clear()
        pending[1 - position] = (key, row[1 - position])
        return row[position]

    db.register_function("sqlnb_raise", raise_error, 1)
    for position, name in enumerate(("sqlnb_classify", "sqlnb_proba")):
        db.register_function(name, functools.partial(scored, position), 2)


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


def _labels(tokens: exp.Query, documents: exp.Query) -> exp.Select:
    """(doc_id, label, proba) of the documents, scored from ``tokens`` by the model
    ``sqlnb_model`` whatever its kind (see :func:`sqlnb.kinds.text.any_parts`)."""
    jll = templates.select(
        "macros/jll.sql",
        jll=joint_of(),
        documents=exp.to_table(DOCUMENTS),
        base=any_base(MODEL),
        parts=any_parts(MODEL, exp.select("*").from_(INPUT)),
    )
    final = templates.select("macros/label.sql", posterior=exp.to_table(POSTERIOR))
    raw = f"{POSTERIOR}_raw"
    scaled = templates.select("macros/temperature.sql", jll=exp.to_table(RAW_JLL))
    calibrated = templates.select(
        "macros/calibrated.sql", posterior=exp.to_table(raw), mapped=mapping(None, "k")
    )
    return Pipeline(
        [
            (INPUT, tokens),
            (DOCUMENTS, documents),
            (RAW_JLL, jll),
            (JLL, scaled),
            (raw, posterior()),
            (POSTERIOR, calibrated),
        ]
    ).select(final)
