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
``sqlnb_word_counts`` (a column per class up to :data:`BY_WORD` classes, else a column per slot
of a block), then each kind's per-class formula (``sql/<kind>/weight.sql``, one expression over
one class's counts) for every column. The readable ``sqlnb_log_theta`` (and
``sqlnb_log_absent``) are views that unpivot it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlglot import exp

from sqlnb import templates
from sqlnb.templates import col

if TYPE_CHECKING:
    from sqlnb.kinds.base import Name

TABLE = "sqlnb_scoring"
PIVOT = "sqlnb_pivot"  # the counts pivoted by word and block, once per derivation
CREATE = "catalog/create_scoring.sql"
BLOCK = 8  # classes per row: the table's columns w0 ... w7 (a test checks the two agree)
SLOTS = range(BLOCK)
COLUMNS = ("word", "base", *(f"w{j}" for j in SLOTS))  # after model (create_scoring.sql)
DOUBLE = exp.DataType.build("DOUBLE")
# Up to this many classes the counts are pivoted by word alone, a column per class (one GROUP
# BY, every block's rows from the same pivoted row); above, by word and block, 8 columns
# whatever the number of classes. Measured (docs/performance.md, "Deriving the weights by
# word"): 20 classes 0.92 against 1.2 CPU-s, 60 classes no faster, and the SQL built grows
# with the classes.
BY_WORD = 24

# A kind's weight of the class in slot j, from the bindings of slot j (see :func:`bindings`).
Weight = Callable[[dict[str, templates.Binding]], exp.Expr]


def _int(value: int) -> exp.Expr:
    return exp.Literal.number(value)


def _model(model: Name, table: str | None = None) -> exp.Expr:
    return col("model", table).eq(exp.convert(model))


def block_of(class_id: exp.Expr) -> exp.Expr:
    """The first class of a class's block: class_id - class_id % BLOCK."""
    return exp.Sub(this=class_id, expression=exp.Mod(this=class_id.copy(), expression=_int(BLOCK)))


def _eq(left: exp.Expr, right: exp.Expr) -> exp.EQ:  # (``.eq`` copies both)
    return exp.EQ(this=left, expression=right)


def _as(node: exp.Expr, name: str) -> exp.Expr:  # (``.as_`` copies the node first)
    return exp.alias_(node, name, copy=False)


def _cross(table: exp.Expr) -> exp.Join:  # (``join_type="CROSS"`` parses "CROSS JOIN")
    return exp.Join(this=table, kind="CROSS")


def _slot(class_id: exp.Expr) -> exp.Expr:
    return exp.Mod(this=class_id, expression=_int(BLOCK))


def formula(name: str, bindings: dict[str, templates.Binding]) -> exp.Expr:
    """The one expression the template ``name`` selects, bound from ``bindings``. A window in
    it (a sum over the words of a class) runs over the rows of one block: their column j is
    one class."""
    (expression,) = templates.expressions(name, **bindings).values()
    for window in expression.find_all(exp.Window):
        window.set("partition_by", [col("base", "s")])
    return expression


def bindings(j: int, counts: str = "q") -> dict[str, templates.Binding]:
    """What a weight formula may use for the class in slot j of a row's block (or, with the
    counts pivoted by word, for class j: ``counts`` the pivot's alias), in the query of
    :func:`derive`: ``$count`` (N_kw, 0 where the word is not in the class), ``$total`` (N_k,
    the class's summed count), ``$docs`` (its documents), ``$size`` (V, the vocabulary),
    ``$word_total`` (the word's count over all classes) and ``$all`` (every count); each
    node built for one formula (:class:`~sqlnb.templates.Fresh`: not copied into it)."""
    nodes = {
        "count": exp.func("COALESCE", col(f"c{j}", counts), _int(0), copy=False),
        "total": exp.func("COALESCE", col(f"t{j}", "s"), _int(0), copy=False),
        "docs": col(f"n{j}", "s"),
        "size": col("vocabulary", "s"),
        "word_total": col("total", "p"),
        "all": col("grand_total", "s"),
    }
    return {name: templates.Fresh(node) for name, node in nodes.items()}


def _hoist(expression: exp.Expr, hoisted: list[exp.Expr]) -> exp.Expr:
    """``expression`` with each logarithm that reads only the block's row (a class's totals:
    the same for every word) replaced by a column of that row, computed once per block and
    added to ``hoisted``."""
    for node in list(expression.find_all(exp.Ln)):
        columns = list(node.find_all(exp.Column))
        if columns and all(c.table == "s" for c in columns) and not node.find(exp.Window):
            hoisted.append(node.copy().as_(f"h{len(hoisted)}", copy=False))
            node.replace(col(f"h{len(hoisted) - 1}", "s"))
    return expression


def _by(source: exp.Expr, alias: str, key: str, value: str, prefix: str, n: int) -> list[exp.Expr]:
    """SUM(value) per ``key`` (a class or slot) as columns <prefix>0 ... <prefix>n-1."""
    return [
        exp.Sum(
            this=exp.Case().when(_eq(col(key, alias), _int(k)), col(value, alias), copy=False)
        ).as_(f"{prefix}{k}", copy=False)
        for k in range(n)
    ]


def _words(pivoted: exp.Expr, totals: exp.Query | None) -> tuple[exp.Select, exp.Select]:
    """Per word its count over all classes (``total``), and the vocabulary's size and grand
    total: from the pivoted counts (the sum of a word's columns in its blocks), or from a
    multi-label model's ``totals`` (word, count), whose documents count under several classes."""
    if totals is not None:
        summed: exp.Expr = totals.subquery("w")
        each: exp.Expr = col("count", "w")
    else:
        summed = pivoted
        each = exp.func("COALESCE", col("c0", "w"), _int(0))
        for j in SLOTS[1:]:
            each = exp.Add(this=each, expression=exp.func("COALESCE", col(f"c{j}", "w"), _int(0)))
    words = (
        exp.select(exp.Sum(this=each).as_("total"), col("word", "w").as_("word"))
        .from_(summed.copy(), copy=False)
        .group_by(col("word", "w"), copy=False)
    )
    vocabulary = exp.Count(this=exp.Distinct(expressions=[col("word", "w")]))
    size = exp.select(
        exp.cast(vocabulary, DOUBLE).as_("vocabulary"),
        exp.Sum(this=each.copy()).as_("grand_total"),
    ).from_(summed.copy(), copy=False)
    return words, size


def _family_base(prefix: str) -> exp.Expr:
    """The ``base`` of a family's rows: block s.base (``w``), or -1 - s.base (``a``)."""
    if prefix == "w":
        return col("base", "s")
    return exp.Sub(this=_int(-1), expression=col("base", "s"))


def _insert(model: Name, rows: list[exp.Select], pivot: exp.Query, blocks: exp.Query) -> exp.Expr:
    union: exp.Query = rows[0]
    for other in rows[1:]:
        union = exp.union(union, other, distinct=False, copy=False)
    query = exp.select("*").from_(union.subquery("r", copy=False), copy=False)
    query = query.with_(PIVOT, as_=pivot, copy=False).with_("sqlnb_blocks", as_=blocks, copy=False)
    return exp.insert(query, templates.table(TABLE), columns=["model", *COLUMNS], copy=False)


def by_word(
    model: Name, families: dict[str, Weight], counts: exp.Query, n_classes: int
) -> exp.Expr:
    """:func:`derive` for a model of ``n_classes`` classes numbered 0 ... n_classes - 1, the
    counts pivoted by word alone: one GROUP BY word with a column per class and the word's
    total, one row of the classes' totals, and each word's row crossed with the numbers of
    the blocks (column j of block b: class b + j's formula, chosen by a CASE on the block)."""
    classes = range(n_classes)
    pivot = (
        exp.select(
            col("word", "w").as_("word"),
            *(
                exp.Sum(
                    this=exp.Case().when(
                        _eq(col("class_id", "w"), _int(k)), col("count", "w"), copy=False
                    )
                ).as_(f"c{k}", copy=False)
                for k in classes
            ),
            exp.Sum(this=col("count", "w")).as_("total"),
        )
        .from_(counts.subquery("w", copy=False), copy=False)
        .group_by(col("word", "w"), copy=False)
    )
    summed = exp.select(
        *(exp.Sum(this=col(f"c{k}", "w")).as_(f"t{k}") for k in classes),
        exp.cast(exp.Count(this=exp.Star()), DOUBLE).as_("vocabulary"),
        exp.Sum(this=col("total", "w")).as_("grand_total"),
    ).from_(exp.alias_(exp.table_(PIVOT), "w", table=True), copy=False)
    per_class = (
        exp.select(col("class_id", "c").as_("class_id"), col("n_docs", "c").as_("n_docs"))
        .from_(exp.alias_(exp.table_("sqlnb_classes"), "c", table=True), copy=False)
        .where(_model(model, "c"), copy=False)
    )
    docs = exp.select(*_by(per_class, "g", "class_id", "n_docs", "n", n_classes))
    docs = docs.from_(per_class.subquery("g", copy=False), copy=False)
    numbers: exp.Query = exp.select(_int(0).as_("base"))
    for first in range(BLOCK, n_classes, BLOCK):
        numbers = exp.union(
            numbers, exp.select(_int(first).as_("base")), distinct=False, copy=False
        )
    blocks = (
        exp.select(
            col("base", "b").as_("base"),
            *(col(f"t{k}", "z").as_(f"t{k}") for k in classes),
            col("vocabulary", "z").as_("vocabulary"),
            col("grand_total", "z").as_("grand_total"),
            *(col(f"n{k}", "d").as_(f"n{k}") for k in classes),
        )
        .from_(numbers.subquery("b"), copy=False)
        .join(_cross(summed.subquery("z", copy=False)), copy=False)
        .join(_cross(docs.subquery("d", copy=False)), copy=False)
    )
    hoisted: list[exp.Expr] = []
    rows = []
    for prefix, weight in families.items():
        weights = []
        for j in SLOTS:
            per_block = [
                (first, _hoist(weight(bindings(first + j, "p")), hoisted))
                for first in range(0, n_classes, BLOCK)
                if first + j < n_classes
            ]
            if not per_block:  # past the last class: no class
                weights.append(exp.cast(exp.null(), DOUBLE).as_(f"w{j}"))
            elif n_classes <= BLOCK:  # one block: every row is of it
                weights.append(per_block[0][1].as_(f"w{j}", copy=False))
            else:
                case = exp.Case(this=col("base", "s"))
                for first, formula_ in per_block:
                    case = case.when(_int(first), formula_, copy=False)
                weights.append(case.as_(f"w{j}", copy=False))
        named = [exp.convert(model).as_("model"), col("word", "p").as_("word")]
        rows.append(
            exp.Select(expressions=[*named, _family_base(prefix).as_("base"), *weights])
            .from_(exp.alias_(exp.table_(PIVOT), "p", table=True), copy=False)
            .join(_cross(exp.alias_(exp.table_("sqlnb_blocks"), "s", table=True)), copy=False)
        )
    stats = exp.select(exp.Star(), *hoisted).from_(blocks.subquery("s", copy=False), copy=False)
    return _insert(model, rows, pivot, stats)


def derive(
    model: Name,
    families: dict[str, Weight],
    counts: exp.Query | None = None,
    totals: exp.Query | None = None,
    n_classes: int = 0,
) -> exp.Expr:
    """Insert the model's rows into ``sqlnb_scoring``: for every training word and block of
    classes a row whose column j holds the weight of class base + j, by each family's formula
    (prefix ``w``: rows of block ``base``; ``a``: of block ``-1 - base``). The counts are
    pivoted once by word and block (a column per slot), every word crossed with one row per
    block (its classes' totals, and the formulas' parts that depend on them alone, computed
    once) and joined to its pivoted counts in that block: the query is the same whatever the
    number of classes. ``counts`` is the relation
    (class_id, word, count) of the model's counts, if not its rows of ``sqlnb_word_counts``;
    ``totals`` (word, count), if given, the words' counts over all documents (a multi-label
    model's, whose documents count under several classes), else the counts' sums (both
    queries built for this call: they become part of the statement, uncopied).
    ``n_classes``, if known (the classes numbered 0 ... n_classes - 1), and at most
    :data:`BY_WORD` without ``totals``: :func:`by_word` (the same rows)."""
    if counts is None:
        counts = (
            exp.select(col("class_id"), col("word"), col("count"))
            .from_(exp.table_("sqlnb_word_counts"), copy=False)
            .where(_model(model), copy=False)
        )
    if totals is None and 0 < n_classes <= BY_WORD:
        return by_word(model, families, counts, n_classes)
    block = block_of(col("class_id", "w"))
    pivot = (  # per word and block with a count: column c<j> the count of class base + j
        exp.select(
            col("word", "w").as_("word"),
            block.as_("base"),
            *(
                exp.Sum(
                    this=exp.Case().when(_slot(col("class_id", "w")).eq(_int(j)), col("count", "w"))
                ).as_(f"c{j}")
                for j in SLOTS
            ),
        )
        .from_(counts.subquery("w", copy=False), copy=False)
        .group_by(col("word", "w"), block.copy(), copy=False)
    )
    pivoted = exp.alias_(exp.table_(PIVOT), "w", table=True)
    words, size = _words(pivoted, totals)
    per_block = (  # per block: each class's summed count, from the pivot (no second read)
        exp.select(
            col("base", "w").as_("base"),
            *(exp.Sum(this=col(f"c{j}", "w")).as_(f"t{j}") for j in SLOTS),
        )
        .from_(pivoted.copy(), copy=False)
        .group_by(col("base", "w"), copy=False)
        .subquery("k", copy=False)
    )
    per_class = (  # per class: its block, its slot in the block, its documents
        exp.select(
            block_of(col("class_id", "c")).as_("base"),
            _slot(col("class_id", "c")).as_("slot"),
            col("n_docs", "c").as_("n_docs"),
        )
        .from_(exp.alias_(exp.table_("sqlnb_classes"), "c", table=True), copy=False)
        .where(_model(model, "c"), copy=False)
        .subquery("g", copy=False)
    )
    blocks = exp.select(
        col("base", "g").as_("base"),
        *(exp.Max(this=col(f"t{j}", "k")).as_(f"t{j}") for j in SLOTS),
        *_by(per_class, "g", "slot", "n_docs", "n", BLOCK),
        exp.Max(this=col("vocabulary", "z")).as_("vocabulary"),
        exp.Max(this=col("grand_total", "z")).as_("grand_total"),
    )
    blocks = (
        blocks.from_(per_class, copy=False)
        .join(per_block, join_type="LEFT", on=col("base", "k").eq(col("base", "g")), copy=False)
        .join(_cross(size.subquery("z", copy=False)), copy=False)
        .group_by(col("base", "g"), copy=False)
    )
    hoisted: list[exp.Expr] = []
    selects: list[exp.Select] = []
    for prefix, weight in families.items():
        weights = [  # past the last class, no class: NULL
            exp.Case()
            .when(
                exp.Is(this=col(f"n{j}", "s"), expression=exp.null()).not_(),
                _hoist(weight(bindings(j)), hoisted),
                copy=False,
            )
            .as_(f"w{j}")
            for j in SLOTS
        ]
        selects.append(
            exp.select(
                exp.convert(model).as_("model"),
                col("word", "p").as_("word"),
                _family_base(prefix).as_("base"),
                *weights,
            )
            .from_(words.subquery("p"), copy=False)
            .join(_cross(exp.alias_(exp.table_("sqlnb_blocks"), "s", table=True)), copy=False)
            .join(
                exp.alias_(exp.table_(PIVOT), "q", table=True),
                join_type="LEFT",
                on=exp.and_(
                    col("word", "q").eq(col("word", "p")), col("base", "q").eq(col("base", "s"))
                ),
                copy=False,
            )
        )
    stats = exp.select(exp.Star(), *hoisted).from_(blocks.subquery("s"), copy=False)
    return _insert(model, selects, pivot, stats)


def pick(prefix: str) -> exp.Expr:
    """The column of class c.class_id in a row of its block s.base: <prefix><class_id % BLOCK>."""
    case = exp.Case(this=_slot(col("class_id", "c")))
    for j in SLOTS:
        case = case.when(_int(j), col(f"{prefix}{j}", "s"), copy=False)
    return case


def _classes(model: Name) -> exp.Expr:
    return (
        exp.select(col("class_id"))
        .from_(exp.table_("sqlnb_classes"), copy=False)
        .where(_model(model), copy=False)
        .subquery("c", copy=False)
    )


def absent_sums(model: Name) -> exp.Select:
    """Per class (class_id, score, n_zero): the sum of log(1 - theta) over the vocabulary
    (Bernoulli's rows of block ``-1 - base``) and the number of words certain in the class
    (log(1 - theta) NULL). The sum is taken in two levels (by the words' first two characters,
    then over those partial sums): a plain SUM of 200,000 doubles drifts by 1e-9, the two-level
    one stays near 1e-12 on every engine."""
    bucket = exp.func("SUBSTRING", col("word", "s"), _int(1), _int(2))
    sums, totals = [], []
    for j in SLOTS:
        value = col(f"w{j}", "s")
        missing = exp.Case().when(exp.Is(this=value.copy(), expression=exp.null()), _int(1))
        sums += [
            exp.Sum(this=exp.func("COALESCE", value, _int(0))).as_(f"a{j}"),
            exp.Sum(this=missing.else_(_int(0))).as_(f"z{j}"),
        ]
        totals += [
            exp.Sum(this=col(f"a{j}", "g")).as_(f"a{j}"),
            exp.Sum(this=col(f"z{j}", "g")).as_(f"z{j}"),
        ]
    partial = exp.select(
        exp.Sub(this=_int(-1), expression=col("base", "s")).as_("base"), bucket.as_("bucket"), *sums
    )
    total = exp.select(col("base", "g").as_("base"), *totals)
    below = exp.and_(_model(model, "s"), exp.LT(this=col("base", "s"), expression=_int(0)))
    partial = (
        partial.from_(exp.alias_(templates.table(TABLE), "s", table=True), copy=False)
        .where(below, copy=False)
        .group_by(col("base", "s"), bucket.copy(), copy=False)
    )
    total = total.from_(partial.subquery("g", copy=False), copy=False)
    total = total.group_by(col("base", "g"), copy=False)
    return (
        exp.select(
            col("class_id", "c").as_("class_id"),
            pick("a").as_("score"),
            pick("z").as_("n_zero"),
        )
        .from_(total.subquery("s", copy=False), copy=False)
        .join(
            _classes(model),
            on=exp.EQ(this=block_of(col("class_id", "c")), expression=col("base", "s")),
            copy=False,
        )
    )


def signed_block(row: str = "s") -> tuple[exp.Expr, exp.Expr]:
    """For a row ``row`` of the table: the first class of the block it holds weights of, and
    the sign they count with. A row of Bernoulli's log(1 - theta) (base < 0) holds block
    -1 - base and counts against it."""
    negative = exp.LT(this=col("base", row), expression=_int(0))
    block = exp.Case().when(negative, exp.Sub(this=_int(-1), expression=col("base", row)))
    sign = exp.Case().when(negative.copy(), _int(-1)).else_(_int(1))
    return block.else_(col("base", row)), sign


def parts(
    model: Name, tokens: exp.Query, *, zeros: bool, absent: bool, presence: bool = False
) -> exp.Select:
    """Per (doc_id, class_id) the parts of the joint log-likelihood: the sum over the
    document's known words of count * weight (with ``absent``, for Bernoulli's present words,
    minus log(1 - theta), from the rows of block ``-1 - base``) and, with ``zeros`` (the model
    may hold weights of -infinity, stored as NULL), the number of such factors (n_zero: a NULL
    weight adds one, a NULL log(1 - theta) takes one). ``tokens`` is a relation
    (doc_id, word, count) of the documents' words, one row per word; with ``presence`` a word
    counts once where the model's sqlnb_base says so (for SQL functions that serve any kind);
    a query built for this call (it becomes part of the result, uncopied).
    The model is chosen in the WHERE of the joins, not inside a derived table: Spark decorrelates
    a SQL function's body only in that shape."""
    block, sign = signed_block() if absent else (col("base", "s"), _int(1))
    count: exp.Expr = col("count", "t")
    if presence:
        count = exp.Case().when(col("presence", "p"), exp.cast(_int(1), DOUBLE)).else_(count)
    aggregates: list[exp.Expr] = []
    for j in SLOTS:
        weight: exp.Expr = col(f"w{j}", "s")
        if zeros:
            weight = exp.func("COALESCE", weight, _int(0))
        factor = exp.Mul(this=count.copy(), expression=sign.copy()) if absent else count.copy()
        aggregates.append(_as(exp.Sum(this=exp.Mul(this=factor, expression=weight)), f"w{j}"))
        if zeros:
            lost = exp.Is(this=col(f"w{j}", "s"), expression=exp.null())
            aggregates.append(
                exp.Sum(this=exp.Case().when(lost, sign.copy()).else_(_int(0))).as_(f"z{j}")
            )
    sums = (
        exp.select(col("doc_id", "t").as_("doc_id"), block.copy().as_("base"), *aggregates)
        .from_(tokens.subquery("t", copy=False), copy=False)
        .join(
            exp.alias_(templates.table(TABLE), "s", table=True),
            on=col("word", "s").eq(col("word", "t")),
            copy=False,
        )
        .where(_model(model, "s"), copy=False)
    )
    if presence:  # the model's row of class 0: every class of a model has the same presence
        sums = sums.join(
            exp.alias_(exp.table_("sqlnb_base"), "p", table=True),
            on=col("class_id", "p").eq(_int(0)),
            copy=False,
        ).where(_model(model, "p"), copy=False)
    sums = sums.group_by(col("doc_id", "t"), block, copy=False)
    return (
        exp.select(
            col("doc_id", "s").as_("doc_id"),
            col("class_id", "c").as_("class_id"),
            pick("w").as_("score"),
            (pick("z") if zeros else _int(0)).as_("n_zero"),
        )
        .from_(sums.subquery("s", copy=False), copy=False)
        .join(
            exp.alias_(exp.table_("sqlnb_classes"), "c", table=True),
            on=exp.EQ(this=block_of(col("class_id", "c")), expression=col("base", "s")),
            copy=False,
        )
        .where(_model(model, "c"), copy=False)
    )
