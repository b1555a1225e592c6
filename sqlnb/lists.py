"""DuckDB's SQL functions in the list form: a text scored with list functions over the model's
lookup row (``sql/macros/lookup.sql``, stored in sqlnb_lookup), in one projection that DuckDB
runs in parallel over the distinct texts of a query (the set-based pipeline, decorrelated,
grouped every token row by its text)."""

from __future__ import annotations

import json

from sqlglot import exp

from sqlnb import catalog, templates
from sqlnb.engine import Database
from sqlnb.kinds import KINDS, wide
from sqlnb.kinds.text import norm, value
from sqlnb.pipeline import joint, mapping, normalised
from sqlnb.shape import MODEL, TEXT, Shape
from sqlnb.tokenizer import Tokenizer

LOOKUP = "sqlnb_lookup"
TOKENS = "sqlnb_tokens"  # the text's tokens, beside the lookup row's columns


def lookups(db: Database, models: list[str] | None = None) -> list[exp.Expr]:
    """DuckDB's macros read each text model's lookup row (``sql/macros/lookup.sql``) from the
    table sqlnb_lookup, written when the model is: building it costs 0.19 s for 28,445 words
    and 2.9 s for 312,642, reading it 3 and 17 ms. Only a model with a tokenizer has one: the
    macros refuse text for a model trained from a tokens table, and its row (per class a list
    of every word's weight) would cost as much as the model's weights, for nothing. The
    statements that write the rows of ``models`` (default: every text model) again, and delete
    those of models that are gone."""
    if db.dialect.functions != "macros":
        return []
    table = exp.to_table(LOOKUP)
    texts = exp.select("model").from_(catalog.MODELS.node())
    kinds = [k.name for k in KINDS.values() if k.functions]
    tokenized = exp.select("model").from_(catalog.TOKENIZERS.node())
    texts = texts.where(
        exp.and_(
            exp.column("kind").isin(*(exp.convert(k) for k in kinds)),
            exp.column("model").isin(query=tokenized),
        )
    )
    wanted = sorted(r[0] for r in db.fetch(texts))
    statements: list[exp.Expr] = [
        exp.Create(
            this=table.copy(),
            kind="TABLE",
            exists=True,
            expression=_lookup_rows("", exp.false()),
        )
    ]
    if models is None:  # every model's: those of models gone go too
        statements.append(exp.delete(table.copy(), where=exp.true()))
    for name in wanted if models is None else models:
        if models is not None:
            where = exp.column("model").eq(exp.convert(name))
            statements.append(exp.delete(table.copy(), where=where))
        if name in wanted:
            statements.append(exp.insert(_lookup_rows(name, exp.true()), table.copy()))
    return statements


def _lookup_rows(model: str, where: exp.Expr) -> exp.Select:
    """(model, the lookup row's columns) of model ``model``, where ``where``."""
    row = _lookup(exp.convert(model)).subquery("l")
    return exp.select(exp.convert(model).as_("model"), exp.Star()).from_(row).where(where)


def _lookup(model: exp.Expr) -> exp.Select:
    """The lookup row of ``model`` (``sql/macros/lookup.sql``)."""
    return templates.select(
        "macros/lookup.sql",
        model=model,
        weights=word_weights(model),
        bucket=bucket(templates.col("word", "w"), templates.col("buckets", "z")),
    )


def word_weights(model: exp.Expr) -> exp.Select:
    """Per (word, class) of a text model its weight and zero count (``sql/macros/weights.sql``)."""
    row_block, sign = wide.signed_block("r")
    return templates.select(
        "macros/weights.sql",
        model=model,
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
    if shape.temperature:  # softmax(jll / T), T 1 for a model without
        jll = exp.func(
            "LIST_TRANSFORM",
            jll,
            exp.Lambda(
                this=exp.Div(this=exp.column("v"), expression=templates.col("temperature", "l")),
                expressions=[exp.to_identifier("v")],
            ),
        )
    # The text is tokenized in the projection of the lookup row (a column of l), not in the
    # lambdas that read l: the DuckDB 1.5 client cannot bind a lambda of a subquery over both
    # the lookup row and a column of the calling query (the text of each row) ('Referenced
    # table "l" not found'), and its users open these files with it.
    row = exp.select(exp.Star(), exp.alias_(tokens, TOKENS)).from_(exp.to_table(LOOKUP).as_("l"))
    row = row.where(templates.col("model", "l").eq(MODEL))
    return {
        name: exp.select(value).from_(row.subquery("l")).subquery()
        for name, value in decided(jll, shape).items()
    }


def decided(jll: exp.Expr, shape: Shape) -> dict[str, exp.Expr]:
    """The ``label`` and ``proba`` of a text from its list of joint log-likelihoods: normalised
    and ranked by the list form's rules, calibrated (sigmoid or isotonic) where the model of
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
    chosen = {name: posterior[name] for name in ("label", "proba")}
    if shape.mapped:  # sigmoid or isotonic: the label and probability of the calibrated list
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
            for name in ("label", "proba")
        }
    return chosen
