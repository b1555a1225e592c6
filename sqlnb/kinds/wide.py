"""The wide layout text models score with: one row per word, one column per class.

Scoring a document joins each of its tokens to the model. Against the readable long table
(class, word) -> log theta that join makes K rows per token; against the wide table
``sqlnb_scoring`` it makes one, and the per-class sums are K aggregates of that row. The table
(``sql/catalog/create_scoring.sql``) has one shape for every model: classes come in blocks of
:data:`BLOCK`; class ``base + j`` has its weight in column ``w<j>`` (log theta; for complement
the weight) and, for Bernoulli, log(1 - theta) in ``a<j>``. NULL means -infinity, as in every
sqlnb table. A model with at most 32 classes has one row per word, one with 40 has two.

Training derives the table straight from the stored counts: one pivot of
``sqlnb_word_counts`` by word, then each kind's per-class formula (``sql/<kind>/weight.sql``,
one expression over one class's counts) for every class column. The readable
``sqlnb_log_theta`` (and ``sqlnb_log_absent``) are unpivoted from it. These queries depend on
the number of classes, so they are built here as syntax trees, never read from ``sql/``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from sqlglot import exp

from sqlnb import templates
from sqlnb.templates import col

TABLE = "sqlnb_scoring"
CREATE = "catalog/create_scoring.sql"
BLOCK = sum(  # classes per row: the table's w<j> columns
    1 for c in templates.parsed(CREATE).find_all(exp.ColumnDef) if re.fullmatch(r"w\d+", c.name)
)

# A kind's weight of class k, from the bindings of class k (see :func:`class_bindings`).
Weight = Callable[[dict[str, exp.Expr]], exp.Expr]


def _int(value: int) -> exp.Expr:
    return exp.Literal.number(value)


def _model(model: str, table: str | None = None) -> exp.Expr:
    return col("model", table).eq(exp.convert(model))


def blocks(n_classes: int) -> list[range]:
    """The classes of each block of a model: ``range(0, 32)``, ``range(32, 40)``, ..."""
    return [range(b, min(b + BLOCK, n_classes)) for b in range(0, max(n_classes, 1), BLOCK)]


def formula(name: str, bindings: dict[str, exp.Expr]) -> exp.Expr:
    """The one expression the template ``name`` selects, bound from ``bindings``."""
    (expression,) = templates.expressions(name, **bindings).values()
    return expression


def class_bindings(k: int) -> dict[str, exp.Expr]:
    """What a weight formula may use for class k, in the query of :func:`derive`:
    ``$count`` (N_kw, 0 where the word is not in the class), ``$total`` (N_k, the class's
    summed count), ``$docs`` (its documents), ``$size`` (V, the vocabulary), ``$word_total``
    (the word's count over all classes) and ``$all`` (every count)."""
    return {
        "count": exp.func("COALESCE", col(f"c{k}", "p"), _int(0)),
        "total": exp.func("COALESCE", col(f"t{k}", "s"), _int(0)),
        "docs": col(f"n{k}", "s"),
        "size": col("vocabulary", "p"),
        "word_total": col("total", "p"),
        "all": col("grand_total", "p"),
    }


def _pivot(source: exp.Expr, key: str, value: str, n_classes: int, prefix: str) -> exp.Select:
    """SUM(value) per class as columns <prefix>0 ... <prefix>K-1, from rows with class_id."""
    return exp.select(
        *(
            exp.Sum(this=exp.Case().when(col("class_id", key).eq(_int(k)), col(value, key))).as_(
                f"{prefix}{k}"
            )
            for k in range(n_classes)
        )
    ).from_(source)


def derive(model: str, n_classes: int, columns: dict[str, Weight]) -> list[exp.Expr]:
    """Insert the model's rows into ``sqlnb_scoring``, one statement per block: for every
    training word and class k, the column ``<prefix><k - base>`` of each ``columns`` entry
    (prefix -> the kind's formula for class k)."""
    counts = (
        exp.select("class_id", "word", "count")
        .from_("sqlnb_word_counts")
        .where(_model(model))
        .subquery("w")
    )
    words = _pivot(counts, "w", "count", n_classes, "c")
    total = exp.Sum(this=col("count", "w"))
    words = words.select(
        total.as_("total"),
        exp.cast(exp.Window(this=exp.Count(this=exp.Star())), "DOUBLE").as_("vocabulary"),
        exp.Window(this=exp.Sum(this=total.copy())).as_("grand_total"),
        append=True,
    )
    words = words.select(col("word", "w").as_("word"), append=True).group_by(col("word", "w"))
    per_class = (
        exp.select(col("class_id"), exp.Sum(this=col("count")).as_("count"))
        .from_("sqlnb_word_counts")
        .where(_model(model))
        .group_by(col("class_id"))
        .subquery("g")
    )
    totals = _pivot(per_class, "g", "count", n_classes, "t")
    docs = (
        exp.select("class_id", "n_docs").from_("sqlnb_classes").where(_model(model)).subquery("c")
    )
    stats = (
        exp.select(exp.Star())
        .from_(_pivot(docs, "c", "n_docs", n_classes, "n").subquery("n"))
        .join(totals.subquery("t"), join_type="CROSS")
    )
    statements: list[exp.Expr] = []
    for block in blocks(n_classes):
        select = exp.select(
            exp.convert(model).as_("model"),
            col("word", "p").as_("word"),
            _int(block[0]).as_("base"),
        )
        names = ["model", "word", "base"]
        for prefix, weight in columns.items():
            for k in block:
                select = select.select(weight(class_bindings(k)).as_(f"{prefix}{k - block[0]}"))
                names.append(f"{prefix}{k - block[0]}")
        select = select.from_(words.subquery("p")).join(stats.subquery("s"), join_type="CROSS")
        statements.append(exp.insert(select, templates.table(TABLE), columns=names))
    return statements


def _pick(prefix: str, n_slots: int) -> exp.Expr:
    """The column of class c.class_id in a row of block s.base: <prefix><class_id - base>."""
    slot = exp.Sub(this=col("class_id", "c"), expression=col("base", "s"))
    case = exp.Case(this=slot)
    for j in range(n_slots):
        case = case.when(_int(j), col(f"{prefix}{j}", "s"))
    return case


def _block_of(class_id: exp.Expr) -> exp.Expr:
    return exp.Sub(this=class_id, expression=exp.Mod(this=class_id.copy(), expression=_int(BLOCK)))


def readable(
    model: str, n_classes: int, table: str, prefix: str, names: Sequence[str]
) -> exp.Insert:
    """Insert the long, readable form of one weight column family into ``table``: one row per
    class and word, with columns ``names`` (model, class_id, [label,] word, value)."""
    n_slots = min(max(n_classes, 1), BLOCK)
    fields = {
        "model": col("model", "s"),
        "class_id": col("class_id", "c"),
        "label": col("label", "c"),
        "word": col("word", "s"),
    }
    select = exp.select(
        *(fields[n].as_(n) if n in fields else _pick(prefix, n_slots).as_(n) for n in names)
    )
    classes = (
        exp.select("class_id", "label").from_("sqlnb_classes").where(_model(model)).subquery("c")
    )
    select = (
        select.from_(exp.alias_(templates.table(TABLE), "s", table=True))
        .join(
            classes,
            on=exp.EQ(this=_block_of(col("class_id", "c")), expression=col("base", "s")),
        )
        .where(_model(model, "s"))
    )
    return exp.insert(select, templates.table(table), columns=list(names))


def parts(
    model: str, n_classes: int, tokens: exp.Query, *, zeros: bool, absent: bool
) -> exp.Select:
    """Per (doc_id, class_id) the parts of the joint log-likelihood: the sum over the
    document's known words of count * weight (minus log(1 - theta) with ``absent``, for
    Bernoulli's present words) and, with ``zeros`` (the model may hold weights of -infinity,
    stored as NULL), the number of such factors (n_zero). ``tokens`` is a relation
    (doc_id, word, count) of the documents' words."""
    n_slots = min(max(n_classes, 1), BLOCK)
    sums = exp.select(col("doc_id", "t").as_("doc_id"), col("base", "w").as_("base"))
    for j in range(n_slots):
        weight: exp.Expr = col(f"w{j}", "w")
        lost: exp.Expr = exp.Is(this=col(f"w{j}", "w"), expression=exp.null())
        if zeros:
            weight = exp.func("COALESCE", weight, _int(0))
        if absent:
            kept: exp.Expr = col(f"a{j}", "w")
            if zeros:
                kept = exp.func("COALESCE", kept, _int(0))
            weight = exp.Sub(this=weight, expression=kept)
        product = exp.Mul(this=col("count", "t"), expression=exp.paren(weight))
        sums = sums.select(exp.Sum(this=product).as_(f"w{j}"))
        if zeros:  # -infinity factors: a NULL weight adds one, a NULL log(1 - theta) takes one
            n_zero: exp.Expr = exp.Case().when(lost, _int(1)).else_(_int(0))
            if absent:
                taken = exp.Is(this=col(f"a{j}", "w"), expression=exp.null())
                n_zero = exp.Sub(
                    this=n_zero, expression=exp.Case().when(taken, _int(1)).else_(_int(0))
                )
            sums = sums.select(exp.Sum(this=n_zero).as_(f"z{j}"))
    sums = (
        sums.from_(tokens.subquery("t"))
        .join(
            exp.alias_(templates.table(TABLE), "w", table=True),
            on=col("word", "w").eq(col("word", "t")),
        )
        .where(_model(model, "w"))
        .group_by(col("doc_id", "t"), col("base", "w"))
    )
    classes = exp.select("class_id").from_("sqlnb_classes").where(_model(model))
    return (
        exp.select(
            col("doc_id", "s").as_("doc_id"),
            col("class_id", "c").as_("class_id"),
            _pick("w", n_slots).as_("score"),
            (_pick("z", n_slots) if zeros else _int(0)).as_("n_zero"),
        )
        .from_(sums.subquery("s"))
        .join(
            classes.subquery("c"),
            on=exp.EQ(this=_block_of(col("class_id", "c")), expression=col("base", "s")),
        )
    )
