"""The wide layout text models score with: one row per word and block of classes, one column
per class of the block.

Scoring a document joins each of its tokens to the model. Against the readable long table
(class, word) -> log theta that join makes K rows per token; against the wide table
``sqlnb_scoring`` (``sql/catalog/create_scoring.sql``) it makes one per block of :data:`BLOCK`
classes, and the per-class sums are aggregates of those rows. Class ``base + j`` has its
weight in column ``w<j>`` of the row of block ``base`` (log theta; for complement the weight);
for Bernoulli, log(1 - theta) is in the rows of block ``-1 - base``. NULL means -infinity, as
in every sqlnb table (and, past the model's last class, no class at all). Every query here
reads the same :data:`BLOCK` columns whatever the number of classes, so none depends on it.

Training derives the table straight from the stored counts: one pivot of
``sqlnb_word_counts`` by word and block, then each kind's per-class formula
(``sql/<kind>/weight.sql``, one expression over one class's counts) for every column. The
readable ``sqlnb_log_theta`` (and ``sqlnb_log_absent``) are views that unpivot it.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

from sqlnb import templates
from sqlnb.templates import col

TABLE = "sqlnb_scoring"
CREATE = "catalog/create_scoring.sql"
BLOCK = 8  # classes per row: the table's columns w0 ... w7 (a test checks the two agree)
SLOTS = range(BLOCK)

# A kind's weight of the class in slot j, from the bindings of slot j (see :func:`bindings`).
Weight = Callable[[dict[str, exp.Expr]], exp.Expr]
# A model's name: a literal, or an expression that gives it (a macro's parameter).
Name = str | exp.Expr


def _int(value: int) -> exp.Expr:
    return exp.Literal.number(value)


def _model(model: Name, table: str | None = None) -> exp.Expr:
    return col("model", table).eq(exp.convert(model))


def block_of(class_id: exp.Expr) -> exp.Expr:
    """The first class of a class's block: class_id - class_id % BLOCK."""
    return exp.Sub(this=class_id, expression=exp.Mod(this=class_id.copy(), expression=_int(BLOCK)))


def _slot(class_id: exp.Expr) -> exp.Expr:
    return exp.Mod(this=class_id, expression=_int(BLOCK))


def formula(name: str, bindings: dict[str, exp.Expr]) -> exp.Expr:
    """The one expression the template ``name`` selects, bound from ``bindings``. A window in
    it (a sum over the words of a class) runs over the rows of one block: their column j is
    one class."""
    (expression,) = templates.expressions(name, **bindings).values()
    for window in expression.find_all(exp.Window):
        window.set("partition_by", [col("base", "s")])
    return expression


def bindings(j: int) -> dict[str, exp.Expr]:
    """What a weight formula may use for the class in slot j, in the query of :func:`derive`:
    ``$count`` (N_kw, 0 where the word is not in the class), ``$total`` (N_k, the class's
    summed count), ``$docs`` (its documents), ``$size`` (V, the vocabulary), ``$word_total``
    (the word's count over all classes) and ``$all`` (every count)."""
    return {
        "count": exp.func("COALESCE", col(f"c{j}", "p"), _int(0)),
        "total": exp.func("COALESCE", col(f"t{j}", "s"), _int(0)),
        "docs": col(f"n{j}", "s"),
        "size": col("vocabulary", "z"),
        "word_total": col("total", "w"),
        "all": col("grand_total", "z"),
    }


def _by_slot(source: str, value: str, prefix: str) -> list[exp.Expr]:
    """SUM(value) per slot as columns <prefix>0 ... from rows with a slot."""
    return [
        exp.Sum(this=exp.Case().when(col("slot", source).eq(_int(j)), col(value, source))).as_(
            f"{prefix}{j}"
        )
        for j in SLOTS
    ]


def derive(model: Name, families: dict[str, Weight]) -> exp.Expr:
    """Insert the model's rows into ``sqlnb_scoring``: for every training word and block of
    classes a row whose column j holds the weight of class base + j, by each family's formula
    (prefix ``w``: rows of block ``base``; ``a``: of block ``-1 - base``)."""
    counts = (
        exp.select(
            col("word", "c").as_("word"),
            block_of(col("class_id", "c")).as_("base"),
            _slot(col("class_id", "c")).as_("slot"),
            col("count", "c").as_("count"),
        )
        .from_(exp.alias_(exp.to_table("sqlnb_word_counts"), "c", table=True))
        .where(_model(model, "c"))
    )
    words = (
        exp.select(col("word", "k").as_("word"), exp.Sum(this=col("count", "k")).as_("total"))
        .from_(exp.alias_(exp.to_table("sqlnb_counts"), "k", table=True))
        .group_by(col("word", "k"))
    )
    pivot = (
        exp.select(col("word", "k").as_("word"), col("base", "k").as_("base"))
        .select(*_by_slot("k", "count", "c"))
        .from_(exp.alias_(exp.to_table("sqlnb_counts"), "k", table=True))
        .group_by(col("word", "k"), col("base", "k"))
    )
    per_class = (
        exp.select(
            block_of(col("class_id", "c")).as_("base"),
            _slot(col("class_id", "c")).as_("slot"),
            col("n_docs", "c").as_("n_docs"),
            exp.Sum(this=col("count", "k")).as_("total"),
        )
        .from_(exp.alias_(exp.to_table("sqlnb_classes"), "c", table=True))
        .join(
            exp.alias_(exp.to_table("sqlnb_word_counts"), "k", table=True),
            join_type="LEFT",
            on=exp.and_(
                col("model", "k").eq(col("model", "c")),
                col("class_id", "k").eq(col("class_id", "c")),
            ),
        )
        .where(_model(model, "c"))
        .group_by(col("class_id", "c"), col("n_docs", "c"))
    )
    stats = (
        exp.select(col("base", "g").as_("base"))
        .select(*_by_slot("g", "total", "t"), *_by_slot("g", "n_docs", "n"))
        .from_(per_class.subquery("g"))
        .group_by(col("base", "g"))
    )
    size = exp.select(
        exp.cast(exp.Count(this=exp.Star()), "DOUBLE").as_("vocabulary"),
        exp.Sum(this=col("total", "w")).as_("grand_total"),
    ).from_(exp.alias_(exp.to_table("sqlnb_words"), "w", table=True))
    selects: list[exp.Select] = []
    for prefix, weight in families.items():
        base = (
            col("base", "s")
            if prefix == "w"
            else exp.Sub(this=_int(-1), expression=col("base", "s"))
        )
        select = exp.select(
            exp.convert(model).as_("model"), col("word", "w").as_("word"), base.as_("base")
        )
        for j in SLOTS:  # past the last class, no class: NULL
            known = exp.Is(this=col(f"n{j}", "s"), expression=exp.null()).not_()
            select = select.select(exp.Case().when(known, weight(bindings(j))).as_(f"w{j}"))
        selects.append(
            select.from_(exp.alias_(exp.to_table("sqlnb_words"), "w", table=True))
            .join(exp.alias_(exp.to_table("sqlnb_stats"), "s", table=True), join_type="CROSS")
            .join(exp.alias_(exp.to_table("sqlnb_size"), "z", table=True), join_type="CROSS")
            .join(
                exp.alias_(exp.to_table("sqlnb_pivot"), "p", table=True),
                join_type="LEFT",
                on=exp.and_(
                    col("word", "p").eq(col("word", "w")), col("base", "p").eq(col("base", "s"))
                ),
            )
        )
    rows: exp.Query = selects[0]
    for other in selects[1:]:
        rows = exp.union(rows, other, distinct=False)
    query = exp.select("*").from_(rows.subquery("r"))
    for name, cte in (
        ("sqlnb_counts", counts),
        ("sqlnb_words", words),
        ("sqlnb_pivot", pivot),
        ("sqlnb_stats", stats),
        ("sqlnb_size", size),
    ):
        query = query.with_(name, as_=cte, copy=False)
    names = ["model", "word", "base", *(f"w{j}" for j in SLOTS)]
    return exp.insert(query, templates.table(TABLE), columns=names)


def pick(prefix: str) -> exp.Expr:
    """The column of class c.class_id in a row of its block s.base: <prefix><class_id % BLOCK>."""
    case = exp.Case(this=_slot(col("class_id", "c")))
    for j in SLOTS:
        case = case.when(_int(j), col(f"{prefix}{j}", "s"))
    return case


def _classes(model: Name) -> exp.Expr:
    return exp.select("class_id").from_("sqlnb_classes").where(_model(model)).subquery("c")


def absent_sums(model: Name) -> exp.Select:
    """Per class (class_id, score, n_zero): the sum of log(1 - theta) over the vocabulary
    (Bernoulli's rows of block ``-1 - base``) and the number of words certain in the class
    (log(1 - theta) NULL). The sum is taken in two levels (by the words' first two characters,
    then over those partial sums): a plain SUM of 200,000 doubles drifts by 1e-9, the two-level
    one stays near 1e-12 on every engine."""
    bucket = exp.func("SUBSTRING", col("word", "s"), _int(1), _int(2))
    partial = exp.select(
        exp.Sub(this=_int(-1), expression=col("base", "s")).as_("base"), bucket.as_("bucket")
    )
    total = exp.select(col("base", "g").as_("base"))
    for j in SLOTS:
        value = col(f"w{j}", "s")
        missing = exp.Case().when(exp.Is(this=value.copy(), expression=exp.null()), _int(1))
        partial = partial.select(
            exp.Sum(this=exp.func("COALESCE", value, _int(0))).as_(f"a{j}"),
            exp.Sum(this=missing.else_(_int(0))).as_(f"z{j}"),
        )
        total = total.select(
            exp.Sum(this=col(f"a{j}", "g")).as_(f"a{j}"),
            exp.Sum(this=col(f"z{j}", "g")).as_(f"z{j}"),
        )
    partial = (
        partial.from_(exp.alias_(templates.table(TABLE), "s", table=True))
        .where(exp.and_(_model(model, "s"), exp.LT(this=col("base", "s"), expression=_int(0))))
        .group_by(col("base", "s"), bucket.copy())
    )
    total = total.from_(partial.subquery("g")).group_by(col("base", "g"))
    return (
        exp.select(
            col("class_id", "c").as_("class_id"),
            pick("a").as_("score"),
            pick("z").as_("n_zero"),
        )
        .from_(total.subquery("s"))
        .join(
            _classes(model),
            on=exp.EQ(this=block_of(col("class_id", "c")), expression=col("base", "s")),
        )
    )


def parts(model: Name, tokens: exp.Query, *, zeros: bool, absent: bool) -> exp.Select:
    """Per (doc_id, class_id) the parts of the joint log-likelihood: the sum over the
    document's known words of count * weight (with ``absent``, for Bernoulli's present words,
    minus log(1 - theta), from the rows of block ``-1 - base``) and, with ``zeros`` (the model
    may hold weights of -infinity, stored as NULL), the number of such factors (n_zero: a NULL
    weight adds one, a NULL log(1 - theta) takes one). ``tokens`` is a relation
    (doc_id, word, count) of the documents' words."""
    weights = exp.select(col("word", "s").as_("word"))
    block: exp.Expr = col("base", "s")
    if absent:  # a row of log(1 - theta) counts against its block
        negative = exp.LT(this=col("base", "s"), expression=_int(0))
        block = exp.Case().when(negative, exp.Sub(this=_int(-1), expression=block)).else_(block)
        sign = exp.Case().when(negative.copy(), _int(-1)).else_(_int(1))
        weights = weights.select(sign.as_("sign"))
    weights = weights.select(block.as_("base"), *(col(f"w{j}", "s").as_(f"w{j}") for j in SLOTS))
    weights = weights.from_(exp.alias_(templates.table(TABLE), "s", table=True)).where(
        _model(model, "s")
    )
    sums = exp.select(col("doc_id", "t").as_("doc_id"), col("base", "w").as_("base"))
    for j in SLOTS:
        weight: exp.Expr = col(f"w{j}", "w")
        if zeros:
            weight = exp.func("COALESCE", weight, _int(0))
        factor: exp.Expr = col("count", "t")
        if absent:
            factor = exp.Mul(this=factor, expression=col("sign", "w"))
        sums = sums.select(exp.Sum(this=exp.Mul(this=factor, expression=weight)).as_(f"w{j}"))
        if zeros:
            lost = exp.Is(this=col(f"w{j}", "w"), expression=exp.null())
            one: exp.Expr = col("sign", "w") if absent else _int(1)
            sums = sums.select(exp.Sum(this=exp.Case().when(lost, one).else_(_int(0))).as_(f"z{j}"))
    sums = (
        sums.from_(tokens.subquery("t"))
        .join(weights.subquery("w"), on=col("word", "w").eq(col("word", "t")))
        .group_by(col("doc_id", "t"), col("base", "w"))
    )
    return (
        exp.select(
            col("doc_id", "s").as_("doc_id"),
            col("class_id", "c").as_("class_id"),
            pick("w").as_("score"),
            (pick("z") if zeros else _int(0)).as_("n_zero"),
        )
        .from_(sums.subquery("s"))
        .join(
            _classes(model),
            on=exp.EQ(this=block_of(col("class_id", "c")), expression=col("base", "s")),
        )
    )
