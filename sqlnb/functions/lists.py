"""DuckDB's SQL functions in the list form: a text scored with list functions over the model's
lookup row (``sql/macros/lookup.sql``, stored in sqlnb_lookup), in one projection that DuckDB
runs in parallel over the distinct texts of a query (the set-based pipeline, decorrelated,
grouped every token row by its text)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from sqlglot import exp

from sqlnb import catalog, labels, multilabel, templates
from sqlnb.functions.shape import LOOKUP, MODEL, TEXT, Shape, stored
from sqlnb.kinds import wide
from sqlnb.kinds.tfidf import norm, value
from sqlnb.pipeline import joint, mapping, normalised
from sqlnb.tokenizer import Tokenizer
from sqlnb.version import __version__

if TYPE_CHECKING:
    from sqlnb.engine import Database

TOKENS = "sqlnb_tokens"  # the text's tokens, beside the lookup row's columns


def forget(db: Database, model: str | None, record: exp.Table | None = None) -> list[exp.Expr]:
    """The statements that delete the stored lookup rows that went stale with a write: model
    ``model``'s, those of models gone, or all where the functions' ``record`` (if there is
    one) names another sqlnb's version (it stored them). A write never builds a row
    (:func:`lookups` does, when asked): until it is stored, the macros build a model's row in
    each query (:func:`listed`)."""
    if not stored(db):
        return []
    models = exp.select("model").from_(catalog.MODELS.node())
    where: exp.Expr = exp.column("model").isin(query=models).not_()
    if model is not None:
        where = exp.or_(exp.column("model").eq(exp.convert(model)), where)
    if record is not None:  # (one statement, before the shape is read: that read is once)
        other = exp.select("1").from_(record).where(exp.column("version").neq(__version__))
        where = exp.or_(where, exp.Exists(this=other))
    return [exp.delete(exp.to_table(LOOKUP), where=where)]


def made(db: Database) -> list[exp.Expr]:
    """sqlnb_lookup, made if missing (before the macros that read it)."""
    rows = _lookup_rows("", exp.false())
    return [exp.Create(this=exp.to_table(LOOKUP), kind="TABLE", exists=True, expression=rows)]


def outdated(db: Database) -> list[exp.Expr]:
    """sqlnb_lookup dropped (with its rows) if another sqlnb made it with other columns than
    this one's lookup row has: :func:`made` then makes it again."""
    if not stored(db):
        return []
    columns = ["model", *_lookup(exp.null()).named_selects]
    if list(db.columns(exp.to_table(LOOKUP))) == columns:
        return []
    return [exp.Drop(kind="TABLE", exists=True, tables=[exp.to_table(LOOKUP)])]


def lookups(db: Database, models: list[str]) -> list[exp.Expr]:
    """The statements that store the lookup rows (``sql/macros/lookup.sql``) of text models
    ``models`` (from :func:`sqlnb.functions.shape.missing`), for DuckDB's macros to read instead of
    building them in each query: building one costs 0.19 s for 28,445 words and 2.9 s for
    312,642, reading it 3 and 17 ms (``sqlnb functions``)."""
    return [exp.insert(_lookup_rows(name, exp.true()), exp.to_table(LOOKUP)) for name in models]


def _lookup_rows(model: str, where: exp.Expr) -> exp.Select:
    """(model, the lookup row's columns) of model ``model``, where ``where``."""
    row = _lookup(exp.convert(model)).subquery("l")
    return exp.select(exp.convert(model).as_("model"), exp.Star()).from_(row).where(where)


def _lookup(model: exp.Expr, wanted: exp.Expr | None = None) -> exp.Select:
    """The lookup row of ``model`` (``sql/macros/lookup.sql``), its words read only where
    ``wanted``."""
    return templates.select(
        "macros/lookup.sql",
        model=model,
        steps=catalog.steps(),
        weights=word_weights(model, wanted),
        bucket=bucket(templates.col("word", "w"), templates.col("buckets", "z")),
    )


def word_weights(model: exp.Expr, wanted: exp.Expr | None = None) -> exp.Select:
    """Per (word, class) of a text model its weight and zero count (``sql/macros/weights.sql``),
    read only where ``wanted`` (default: always)."""
    row_block, sign = wide.signed_block("r")
    return templates.select(
        "macros/weights.sql",
        model=model,
        wanted=exp.true() if wanted is None else wanted,
        weight=wide.pick("w"),
        zero=wide.pick("z"),
        block=wide.block_of(templates.col("class_id", "c")),
        row_block=row_block,
        sign=sign,
    )


def position(values: exp.Expr, top: exp.Expr) -> exp.Expr:
    """The argmax and its tie rule over a list (``sql/macros/argmax.sql``)."""
    return templates.expressions("macros/argmax.sql", values=values, top=top)["position"]


def bucket(word: exp.Expr, buckets: exp.Expr) -> exp.Expr:
    return templates.expressions("macros/bucket.sql", word=word, buckets=buckets)["bucket"]


def listed(shape: Shape) -> dict[str, exp.Expr]:
    """DuckDB's label and proba of the text sqlnb_text under the model sqlnb_model, as scalar
    subqueries over the model's lookup row (``sql/macros/lookup.sql``, stored in sqlnb_lookup):
    the text is tokenized into a list (:meth:`Tokenizer.words`, by the model's tokenizer
    among the shape's), its words looked up and scored with list functions
    (``sql/macros/scores.sql``), and the scores normalised (``sql/macros/posterior.sql``).
    Without a join or an aggregate over its words, DuckDB runs a query over many texts as one
    projection of its distinct texts, in parallel."""
    lookup: exp.Query = (
        exp.select("*").from_(exp.to_table(LOOKUP)).where(exp.column("model").eq(MODEL))
    )
    if shape.lazy:  # a model without a stored row: built by the query (its words read only then)
        unstored = exp.Exists(this=lookup.copy()).not_()
        built = exp.select(MODEL.as_("model"), exp.Star()).from_(
            _lookup(MODEL, unstored).subquery("b")
        )
        lookup = exp.union(lookup, built.where(unstored.copy()), distinct=False)
    words: list[tuple[str, exp.Expr]] = [
        (key, Tokenizer.from_dict(json.loads(key)).words(TEXT)) for key in shape.tokenizers
    ]
    tokens: exp.Expr = exp.cast(
        exp.null(), exp.DataType.build("VARCHAR[]", dialect=templates.SOURCE_DIALECT)
    )
    if len(words) == 1:
        tokens = words[0][1]
    elif words:  # the model's own tokenizer
        tokens = exp.Case()
        for key, listed in words:
            tokens = tokens.when(templates.col("settings", "l").eq(exp.convert(key)), listed)

    def terms(found: exp.Expr, score: str) -> exp.Expr:
        t = templates.expressions("macros/terms.sql", found=found)
        return joint(t["base"], t["n_zero"], t[score])

    (per_class,) = templates.expressions(
        "macros/counted.sql", counted=terms(exp.column("found"), "counted")
    ).values()
    if shape.transformed:  # the model's documents transformed, if it has a transform
        x = exp.column("x")
        i = exp.column("i")
        found_count = exp.Bracket(
            this=exp.func("MAP_VALUES", exp.column("h")), expressions=[i.copy()]
        )
        word_idf = exp.Bracket(
            this=templates.col("idf", "l"),
            expressions=[exp.Bracket(this=exp.func("MAP_KEYS", exp.column("h")), expressions=[i])],
        )
        squares = exp.Lambda(this=exp.Mul(this=exp.column("v"), expression=exp.column("v")),
                             expressions=[exp.to_identifier("v")])  # fmt: skip
        absolute = exp.Lambda(
            this=exp.Abs(this=exp.column("v")), expressions=[exp.to_identifier("v")]
        )
        (changed,) = templates.expressions(
            "macros/transformed.sql",
            value=value(found_count, templates.col("sublinear", "l"), word_idf),
            norm=norm(
                templates.col("norm", "l"),
                exp.func("LIST_SUM", exp.func("LIST_TRANSFORM", x.copy(), absolute)),
                exp.func("LIST_SUM", exp.func("LIST_TRANSFORM", x.copy(), squares)),
            ),
            transformed=terms(exp.func("MAP_KEYS", exp.column("h")), "transformed"),
        ).values()
        per_class = exp.Case(
            ifs=[exp.If(this=templates.col("transformed", "l"), true=changed)], default=per_class
        )
    (jll,) = templates.expressions(
        "macros/scores.sql",
        tokens=templates.col(TOKENS, "l"),
        bucket=bucket(exp.column("t"), templates.col("buckets", "l")),
        per_class=per_class,
    ).values()
    if shape.scaled:  # softmax(jll / T), T 1 for a model without
        jll = exp.func(
            "LIST_TRANSFORM",
            jll,
            exp.Lambda(
                this=exp.Div(this=exp.column("v"), expression=templates.col("scale", "l")),
                expressions=[exp.to_identifier("v")],
            ),
        )
    # The text is tokenized in the projection of the lookup row (a column of l), not in the
    # lambdas that read l: the DuckDB 1.5 client cannot bind a lambda of a subquery over both
    # the lookup row and a column of the calling query (the text of each row) ('Referenced
    # table "l" not found'), and its users open these files with it.
    row = exp.select(exp.Star(), exp.alias_(tokens, TOKENS)).from_(lookup.subquery("l"))
    chosen = decided(jll, shape, probas=shape.hierarchy)
    if shape.hierarchy:  # labels that form a tree: the walk after the posterior
        flat = {name: chosen[name] for name in ("label", "proba")}
        chosen = labels.listed(row.subquery("l"), flat, chosen["probas"])
        if not shape.multi:
            return chosen
    if shape.multi:  # several labels per document: a list of labels (sqlnb.multilabel)
        return multilabel.listed(row.subquery("l"), jll, chosen, MODEL)
    return {
        name: exp.select(value).from_(row.subquery("l")).subquery()
        for name, value in chosen.items()
    }


def decided(jll: exp.Expr, shape: Shape, *, probas: bool = False) -> dict[str, exp.Expr]:
    """The ``label`` and ``proba`` of a text from its list of joint log-likelihoods: normalised
    and ranked by the list form's rules, calibrated (mapped one-vs-rest) where the model of
    row ``l`` is and ``shape`` needs it. DuckDB's macros and ClickHouse's lambdas share it."""
    top, total = exp.column("top"), exp.column("total")
    posterior = templates.expressions(
        "macros/posterior.sql",
        jll=jll,
        term=normalised(exp.column("v"), top, exp.null())["term"],
        proba=normalised(top, top, total)["proba"],
        each=normalised(exp.column("v"), top, total)["proba"],
        position=position(exp.column("j"), top),
    )
    chosen = {name: posterior[name] for name in ("label", "proba", "probas")}
    if shape.mapped:  # a map: the label and probability of the calibrated list
        calibrated = templates.expressions(
            "macros/calibrated_lists.sql",
            probas=posterior["probas"],
            mapped=mapping(None, given={n: exp.column(n) for n in ("p", "lo", "a", "b", "method")}),
            position=position(exp.column("q"), exp.ArrayMax(this=exp.column("q"))),
        )
        chosen = {
            name: exp.Case(
                ifs=[exp.If(this=templates.col("calibrated", "l"), true=calibrated[name])],
                default=posterior[name],
            )
            for name in ("label", "proba", "probas")
        }
    if not probas:  # (every class's posterior, in class order, calibrated as predict's)
        del chosen["probas"]
    return chosen
