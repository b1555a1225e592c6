"""ClickHouse's SQL functions: sqlnb_classify(model, text) and sqlnb_proba(model, text) as lambdas
over arrays (``CREATE FUNCTION name AS (args) -> expr``). A ClickHouse function takes no
subquery, so a text model is read from three dictionaries held in memory, as ClickHouse's own
naiveBayesClassifier reads its model: per (model, word) the word's key (``sqlnb_ch_words``), per
key the word's weight and zero count in one class and its idf (``sqlnb_ch_weights``: the key of
class i is the word's key + i - 1), and per model its labels, base, tokenizer, transform and
calibration (``sqlnb_ch_models``); sqlnb writes a model's rows and reloads them after every
write of it. The functions are the server's, the dictionaries each database's: the lambdas name
the dictionaries without a database, so ClickHouse reads those of the database a function is
called in (``currentDatabase()``), and the lambdas hold the tokenizers and steps of every
database with sqlnb's functions (:func:`shared`), not only of the one written last.
The text is tokenized by the model's own tokenizer (:meth:`Tokenizer.words`, the
list form DuckDB's macros use), its words' weights added up per class
(``sql/functions/clickhouse/scores.clickhouse.sql``), and the joint log-likelihoods normalised
and ranked by the list form's own rules (``sql/macros/posterior.sql``, ``argmax.sql``,
``calibrated_lists.sql``, with ``sql/predict/normalise.sql`` and ``joint.sql``)."""

from __future__ import annotations

import contextlib
import json
from typing import TYPE_CHECKING

from sqlglot import exp

from sqlnb import catalog, labels, multilabel, templates
from sqlnb.errors import SqlnbError
from sqlnb.functions import lists
from sqlnb.functions.shape import MODEL, SERVED, TEXT, Shape
from sqlnb.functions.wrap import filled
from sqlnb.kinds.tfidf import norm, value
from sqlnb.pipeline import joint
from sqlnb.tokenizer import Tokenizer

if TYPE_CHECKING:
    from sqlnb.engine import Database

WORDS, WEIGHTS, MODELS = "sqlnb_ch_words", "sqlnb_ch_weights", "sqlnb_ch_models"
TABLES = (WORDS, WEIGHTS, MODELS)
# The columns of the list form's lookup row (sql/macros/lookup.sql) that a model's row of
# sqlnb_ch_models holds: all but the words' (the per-word dictionaries hold those).
ROW = (
    "labels",
    "base",
    "base_zero",
    "presence",
    "zeros",
    "settings",
    "transformed",
    "sublinear",
    "norm",
    "scale",
    "calibrated",
    "cal_method",
    "cal_lo",
    "cal_a",
    "cal_b",
)


def database(db: Database) -> str:
    """The database the functions' dictionaries are in: the connection's current one."""
    return str(db.fetch(exp.select(exp.func("currentDatabase")))[0][0])


def shared(db: Database, keys: list[str]) -> list[str]:
    """The :class:`Shape` keys the server's functions are built for: this database's ``keys``
    and those recorded in ``sqlnb_functions`` by every other database holding sqlnb's
    dictionaries that this connection may read (a key that is no mark and no tokenizer's is
    left out: another database's record is not trusted to be sqlnb's)."""
    found = (
        exp.select("database")
        .distinct()
        .from_(exp.to_table("system.tables"))
        .where(
            exp.column("name").eq(exp.convert(f"{MODELS}_dict")),
            exp.column("database").neq(exp.func("currentDatabase")),
        )
    )
    merged = set(keys)
    for (other,) in db.fetch(found):
        record = exp.to_table("sqlnb_functions", db=str(other), quoted=True)
        with contextlib.suppress(SqlnbError):  # a database it may not read, or no record
            merged |= {str(r[0]) for r in db.fetch(exp.select("settings").from_(record))}
    marks = (*Shape.MARKS, "+hierarchy", Shape.MULTI)  # (labels that form a tree, or several)
    return sorted(k for k in merged if k in marks or _is_tokenizer(k))


def _is_tokenizer(key: str) -> bool:
    try:
        return Tokenizer.from_dict(json.loads(key)).key() == key
    except (ValueError, TypeError, AttributeError, SqlnbError):
        return False


def statements(db: Database, shape: Shape) -> list[str]:
    """The tables and dictionaries, made anew (their rows are all written again after them:
    an older sqlnb's are dropped), and the two functions, for the database's ``shape``."""
    where = database(db)
    names = {
        "database": exp.to_identifier(where, quoted=True).sql("clickhouse"),
        "database_text": exp.Literal.string(where).sql("clickhouse"),
    }
    label, proba = _functions(shape)
    return [
        *(f"DROP DICTIONARY IF EXISTS {_name(where, f'{t}_dict')}" for t in TABLES),
        *(f"DROP TABLE IF EXISTS {_name(where, t)}" for t in TABLES),
        *(filled("clickhouse", name, **names) for name in ("tables", "weights", "models")),
        *(
            filled("clickhouse", name, **names)
            for name in ("dictionaries", "weights_dictionary", "model_dictionary")
        ),
        filled("clickhouse", "classify", body=db.sql(label)),
        filled("clickhouse", "proba", body=db.sql(proba)),
    ]


def _name(where: str, table: str) -> str:
    """``table`` of the database ``where``, quoted for ClickHouse."""
    return exp.to_table(table, db=where, quoted=True).sql("clickhouse")


def rows(db: Database, models: list[str] | None = None) -> list[exp.Expr | str]:
    """The statements that write the rows of ``models`` (default: every text model) again,
    delete those of models that are gone, and reload the dictionaries."""
    texts = catalog.listed(db, exp.select("model").from_(catalog.MODELS.node()))
    kinds = [k.name for k in SERVED]
    wanted = sorted(
        r[0] for r in db.fetch(texts.where(exp.column("kind").isin(*map(exp.convert, kinds))))
    )
    statements: list[exp.Expr | str] = []
    if models is None:  # every model's: those of models gone go too
        statements += [exp.delete(exp.to_table(t), where=exp.true()) for t in TABLES]
    for name in wanted if models is None else models:
        if models is not None:
            where = exp.column("model").eq(exp.convert(name))
            statements += [exp.delete(exp.to_table(t), where=where.copy()) for t in TABLES]
        if name in wanted:
            model = exp.convert(name)
            classes = (
                exp.select(exp.func("COUNT", exp.Star()))
                .from_(catalog.CLASSES.node())
                .where(exp.column("model").eq(model.copy()))
            )
            row = model_row(model.copy(), classes.copy().subquery())
            statements += [
                templates.render(
                    f"functions/clickhouse/{file}.clickhouse.sql", model=model.copy(), **extra
                )
                for file, extra in (  # the keys, then what they key, then the model's row
                    ("words", {"classes": classes.subquery()}),
                    ("weights", {"weights": lists.word_weights(model.copy())}),
                    ("model", {"row": row, "modes": multilabel.modes()}),
                )
            ]
    current = database(db)
    statements += [f"SYSTEM RELOAD DICTIONARY {_name(current, f'{t}_dict')}" for t in TABLES]
    return statements


def model_row(model: exp.Expr, classes: exp.Expr | None = None) -> exp.Select:
    """The list form's lookup row of ``model`` (``sql/macros/lookup.sql``, the tree DuckDB's
    lookup rows are) without its word lists: its columns :data:`ROW`, and only the joins and
    common tables that these read. A capability the lookup row gains reaches ClickHouse as one
    more name there and a column of ``sqlnb_ch_models``, not a second formulation. Given the
    model's number of ``classes``, its words' weights are read back from its rows of the
    per-word tables (``written.clickhouse.sql``: ClickHouse computes a common table again
    wherever it is read, and adding sqlnb_scoring up three times took 0.3 s more at 28,445
    words), else from sqlnb_scoring."""
    weights: exp.Expr = lists.word_weights(model.copy())
    if classes is not None:
        weights = templates.select(
            "functions/clickhouse/written.clickhouse.sql", model=model.copy(), classes=classes
        )
    row = templates.select(
        "macros/lookup.sql",
        model=model,
        steps=catalog.steps(),
        weights=weights,
        bucket=exp.convert(1),  # (no word is looked up by its hash bucket here)
    )
    return _narrowed(row, ROW)  # (its aggregates in ClickHouse's names: sqlnb.engine.spellings)


def _narrowed(row: exp.Select, columns: tuple[str, ...]) -> exp.Select:
    """``row``, a query of one row made of one-row parts (each an aggregate, or a LEFT JOIN
    of at most one row), reduced to ``columns``: the parts and common tables nothing left
    reads are dropped (which changes no row: each part is one row)."""
    kept = {e.alias_or_name: e for e in row.expressions}
    if missing := set(columns) - set(kept):
        raise SqlnbError(f"the lookup row has no column {sorted(missing)}")
    row.set("expressions", [kept[c] for c in columns])
    read = {c.table for c in row.selects for c in c.find_all(exp.Column)}
    joins = [j for j in row.args.get("joins") or [] if j.alias_or_name in read]
    if row.args["from_"].this.alias_or_name not in read:
        first = joins.pop(0)  # a part that is read, a CROSS JOIN, in the FROM's place
        assert first.args.get("on") is None, "a part without a condition"
        row.set("from_", exp.From(this=first.this))
    row.set("joins", joins)
    for part in (j.this for j in [row.args["from_"], *joins]):  # each part: what is read
        if isinstance(part, exp.Subquery) and isinstance(part.this, exp.Select):
            names = {c.name for c in row.selects for c in c.find_all(exp.Column)
                     if c.table == part.alias}  # fmt: skip
            part.this.set("expressions", [e for e in part.this.expressions
                                          if e.alias_or_name in names])  # fmt: skip
    ctes = row.args.get("with_")
    while ctes is not None:
        unread = [
            cte
            for cte in ctes.expressions
            if not any(
                t.name == cte.alias and t.find_ancestor(exp.CTE) is not cte
                for t in row.find_all(exp.Table)
            )
        ]
        if not unread:
            break
        ctes.set("expressions", [c for c in ctes.expressions if c not in unread])
    return row


def _functions(shape: Shape) -> tuple[exp.Expr, exp.Expr]:
    """The label and the probability of the text sqlnb_text under the model sqlnb_model, read
    from the dictionaries of the database the function is called in."""
    words = exp.Literal.string(f"{WORDS}_dict")
    weights = exp.Literal.string(f"{WEIGHTS}_dict")
    models = exp.Literal.string(f"{MODELS}_dict")

    def field(name: str) -> exp.Expr:
        return exp.Anonymous(
            this="dictGet", expressions=[models.copy(), exp.Literal.string(name), MODEL.copy()]
        )

    tokens: exp.Expr = exp.Array(expressions=[])
    for key in shape.tokenizers:  # the model's own tokenizer
        listed = Tokenizer.from_dict(json.loads(key)).words(TEXT, "clickhouse")
        tokens = exp.If(
            this=field("settings").eq(exp.Literal.string(key)), true=listed, false=tokens
        )
    i, sz = exp.column("i"), exp.column("sz")

    def element(array: exp.Expr, index: exp.Expr) -> exp.Expr:
        return exp.Bracket(this=array, expressions=[index], offset=1)

    def part(n: int) -> exp.Expr:  # sz.1 or sz.2: the words' sums, weights or zero counts
        return exp.Anonymous(this="tupleElement", expressions=[sz.copy(), exp.convert(n)])

    n_zero = exp.Add(this=element(field("base_zero"), i.copy()), expression=element(part(2), i))
    idf = exp.Anonymous(
        this="dictGet", expressions=[weights.copy(), exp.Literal.string("idf"), exp.column("k")]
    )
    x, v = exp.column("x"), exp.column("v")

    def total(f: exp.Expr) -> exp.Expr:  # the sum of f(v) over the values x
        over = exp.Lambda(this=f, expressions=[exp.to_identifier("v")])
        return exp.func("arraySum", over, x.copy())

    (jll,) = templates.expressions(
        "functions/clickhouse/scores.clickhouse.sql",
        joint=joint(element(field("base"), i.copy()), n_zero, element(part(1), i.copy())),
        labels=field("labels"),
        transformed=field("transformed"),
        presence=field("presence"),
        zeros=field("zeros"),
        tokens=tokens,
        words=words,
        weights=weights,
        model=MODEL.copy(),
        value=value(exp.column("n"), field("sublinear"), idf),
        norm=norm(
            field("norm"),
            total(exp.Abs(this=v.copy())),
            total(exp.Mul(this=v.copy(), expression=v.copy())),
        ),
    ).values()
    if shape.scaled:
        scaled = exp.Div(this=exp.column("t"), expression=field("scale"))
        jll = exp.func(
            "arrayMap", exp.Lambda(this=scaled, expressions=[exp.to_identifier("t")]), jll
        )
    chosen = lists.decided(jll, shape, probas=shape.hierarchy)
    for expression in chosen.values():  # the list form's row l: the model's dictionary row
        for column in list(expression.find_all(exp.Column)):
            if column.table == "l":
                column.replace(field(column.name))
    if shape.hierarchy:  # labels that form a tree: the walk after the posterior
        chosen = labels.walked(chosen, {n: field(n) for n in ("labels", "hierarchy", "confidence")})
    if shape.multi:  # several labels per document: an array of labels (sqlnb.multilabel)
        threshold = exp.Nullif(this=field("threshold"), expression=exp.convert(-1))  # (-1: none)
        found = multilabel.at_threshold(jll, field("labels"), threshold)
        x = exp.column("x")  # the flat label, named once: arrayMap(x -> ..., [label])[1]
        named = {**chosen, "label": x}
        mode = multilabel.step(threshold.copy(), found["labels"], found["top"], named)
        once = exp.Lambda(this=mode["label"], expressions=[exp.to_identifier("x")])
        listed = exp.func("arrayMap", once, exp.Array(expressions=[chosen["label"]]))
        chosen = {"label": exp.Bracket(this=listed, expressions=[exp.convert(1)], offset=1),
                  "proba": mode["proba"]}  # fmt: skip
    return tuple(_checked(chosen[n], models, n) for n in ("label", "proba"))  # type: ignore[return-value]


def _checked(value: exp.Expr, models: exp.Expr, name: str) -> exp.Expr:
    """``value``, or an error for a name that is no text model or one without a tokenizer
    (ClickHouse's throwIf takes a constant message: it cannot name the model)."""
    has = exp.Anonymous(this="dictHas", expressions=[models.copy(), MODEL.copy()])
    settings = exp.Anonymous(
        this="dictGet", expressions=[models.copy(), exp.Literal.string("settings"), MODEL.copy()]
    )
    unknown = exp.Anonymous(
        this="throwIf",
        expressions=[
            exp.not_(has),
            exp.Literal.string(f"{name}: no text model of that name in this database"),
        ],
    )
    untokenized = exp.Anonymous(
        this="throwIf",
        expressions=[
            settings.eq(exp.Literal.string("")),
            exp.Literal.string(
                "the model has no tokenizer (it was not trained from text): classify its "
                "tokens with sqlnb predict"
            ),
        ],
    )
    return exp.If(
        this=exp.and_(
            exp.EQ(this=unknown, expression=exp.convert(0)),
            exp.EQ(this=untokenized, expression=exp.convert(0)),
        ),
        true=value,
        false=exp.null(),
    )
