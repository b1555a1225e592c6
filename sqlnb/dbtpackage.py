"""The dbt package (``dbt/``): sqlnb's own SQL as dbt macros, written by ``sqlnb dbt-package``.

Nothing in the package is written by hand for dbt. Each macro is a query sqlnb builds with the
Python it runs itself (the tokenizer, the kinds' counting and deriving statements, the
prediction pipeline of :mod:`sqlnb.pipeline`), over tables and columns whose names stand for
the macro's arguments (``sqlnb_dbt_<argument>``), written in the SQL of each adapter's engine
by sqlglot; the generated text then gets a Jinja expression where each such name is. So a
change to a ``sql/`` template or to the pipeline reaches the package when it is generated
again (a test holds the committed ``dbt/`` equal to this module's output).

The package's relations: ``tokenize`` gives (doc_id, word, count) as ``sqlnb tokenize``;
``counts`` the sufficient statistics by label (statistic, label, word, count: the labeled
documents, each word's summed count (multinomial, complement) and its documents (Bernoulli)),
rows that add up when batches are appended; ``train`` sums them, numbers the classes and
derives the parameter rows of the tables sqlnb's prediction reads (one relation, a column
``part`` naming the table); ``predict`` is ``sqlnb predict``'s query over those rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlglot
from sqlglot import exp

from sqlnb import stop_words, templates, tokenizer, training
from sqlnb.catalog import CLASSES, Entry, tables
from sqlnb.engine import Database, dialects
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Docs, Labels, Tokens
from sqlnb.kinds import KINDS
from sqlnb.kinds.base import Labeled, ModelTable
from sqlnb.kinds.params import resolved
from sqlnb.kinds.text import TextKind
from sqlnb.pipeline import prediction
from sqlnb.version import __version__

# dbt adapter -> the sqlnb dialect its engine speaks
ADAPTERS = {"duckdb": "duckdb", "postgres": "postgres", "spark": "spark"}
MARK = "sqlnb_dbt_"  # the names that stand for a macro's arguments
MODEL = "sqlnb"  # the model's name in the queries (its rows are the model relation's)
ALPHA = 0.0123456789  # stands for the argument alpha in train's queries
TEXT_KINDS = [k for k in KINDS.values() if isinstance(k, TextKind)]
STATISTICS = {"multinomial/count.sql": "multinomial", "bernoulli/count.sql": "bernoulli"}
DOCUMENTS = "documents"  # the statistic of the labeled documents per label


def mark(name: str) -> str:
    return MARK + name


@contextmanager
def _builder() -> Iterator[Database]:
    """An empty in-memory DuckDB with tables named as the macros' arguments, so that sqlnb's
    own code (which looks at a source's columns) builds the queries."""
    db = Database.connect(":memory:", create=True)
    for statement in (
        f"CREATE TABLE {mark('relation')} ({mark('id_column')} BIGINT, {mark('text_column')} "
        "VARCHAR)",
        f"CREATE TABLE {mark('tokens')} (doc_id BIGINT, word VARCHAR, count DOUBLE)",
        f"CREATE TABLE {mark('labels')} (doc_id BIGINT, {mark('label_column')} VARCHAR)",
    ):
        db.execute(statement)
    try:
        yield db
    finally:
        db.close()


def _sql(tree: exp.Expr, dialect: str, jinja: dict[str, str]) -> str:
    """``tree`` as SQL of ``dialect`` with a Jinja expression in place of each marked name
    (``jinja``: the name -> its expression); any other marked name is an error."""
    d = dialects.dialect(dialect)
    text = dialects.to_sql(tree, d.sqlglot, pretty=True)
    if re.search(r"\{[{%#]", text):
        raise SqlnbError(f"generated SQL holds Jinja syntax: {text[:200]}")
    for name, expression in jinja.items():
        identifier = exp.to_identifier(mark(name), quoted=True).sql(d.sqlglot)
        for spelled in (identifier, f"'{mark(name)}'"):
            text = text.replace(spelled, expression)
    text = text.replace(repr(ALPHA), jinja.get("alpha", repr(ALPHA)))
    left = re.search(MARK + r"\w+|" + re.escape(repr(ALPHA)), text)
    if left:
        raise SqlnbError(f"generated SQL keeps {left.group(0)!r}: no argument binds it")
    return text


# --- tokenize ---------------------------------------------------------------------------------


def _tokenize(db: Database, dialect: str, lowercase: bool, grams: bool) -> str:
    """``sqlnb tokenize``'s query of the relation: n-grams (``grams``) from the macro's loop
    over :func:`_gram`, the pattern and the stop words from the macro's arguments."""
    words = Tokenizer(
        lowercase=lowercase,
        pattern=mark("pattern"),
        stop_words=("-",),  # some list: the relation below stands for it
        ngrams=(1, 2) if grams else (1, 1),
        stop_table=mark("stop_words"),
    )
    docs = Docs(mark("relation"), id=mark("id_column"), text=mark("text_column"))
    tree = words.tokens(docs, db, split=False, dialect=dialect)
    if grams:  # the union of the n-grams -> the macro's loop
        union = next(s for s in tree.find_all(exp.Subquery) if s.alias == "g")
        union.replace(exp.table_(mark("grams"), quoted=True).as_("g"))
    return _sql(
        tree,
        dialect,
        {
            "relation": "{{ relation }}",
            "id_column": "{{ sqlnb.quote(id_column) }}",
            "text_column": "{{ sqlnb.quote(text_column) }}",
            "pattern": "{{ pattern }}",
            "stop_words": "{{ stops }}",
            "grams": "({{ sqlnb.grams(ngrams) }})",
        },
    )


Tokenizer = tokenizer.Tokenizer


def _gram(dialect: str, n: int) -> str:
    return _sql(Tokenizer(ngrams=(1, max(n, 1)))._grams(n), dialect, {})


def _tokenize_macro(db: Database, adapter: str, dialect: str) -> str:
    pattern = tokenizer.engine_pattern(tokenizer.DEFAULT_PATTERN, dialects.dialect(dialect))
    english = tokenizer._words(stop_words.ENGLISH).this
    grams = "\n".join(
        f"{'{%- if' if n == 1 else '{%- elif'} n == {n} %}}\n{_gram(dialect, n)}"
        for n in range(1, tokenizer.MAX_NGRAM + 1)
    )
    body = [
        f"{{% macro {adapter}__default_pattern() %}}{_sql(exp.convert(pattern), dialect, {})}"
        "{% endmacro %}\n",
        f"{{% macro {adapter}__english_stop_words() %}}\n"
        f"{_sql(english, dialect, {})}\n{{% endmacro %}}\n",
        f"{{% macro {adapter}__gram(n) %}}\n{grams}\n{{%- endif %}}\n{{% endmacro %}}\n",
        f"{{% macro {adapter}__tokenize(relation, id_column, text_column, lowercase, ngrams, "
        "stop_words, token_pattern) %}\n"
        "{%- set pattern = sqlnb.default_pattern() if token_pattern is none "
        "else sqlnb.literal(token_pattern) %}\n"
        "{%- set stops = sqlnb.stop_relation(stop_words) %}\n"
        "{%- set grams = ngrams[0] != 1 or ngrams[1] != 1 %}\n",
    ]
    if dialects.dialect(dialect).expands_classes:  # sqlnb writes \\pL out: Python, not Jinja
        body.append(
            "{%- if token_pattern is not none and ('\\\\p' in token_pattern or '\\\\P' in "
            "token_pattern) %}\n{{ exceptions.raise_compiler_error('sqlnb.tokenize: token_pattern "
            f"' ~ token_pattern ~ ': {adapter} has no \\\\p classes; write the characters "
            "out (sqlnb tokenize does)') }}\n{%- endif %}\n"
        )
    variants = [(lc, g) for lc in (True, False) for g in (False, True)]
    for i, (lc, g) in enumerate(variants):
        test = f"{'' if lc else 'not '}lowercase and {'' if g else 'not '}grams"
        body.append(f"{'{%- if' if i == 0 else '{%- elif'} {test} %}}\n")
        body.append(_tokenize(db, dialect, lc, g) + "\n")
    body.append("{%- endif %}\n{% endmacro %}\n")
    return "".join(body)


# --- counts -----------------------------------------------------------------------------------


def _counts(db: Database, dialect: str) -> str:
    """The statistics of the labeled documents by label: each text kind's counting statement
    (and the classes' documents) with the label itself as the class (the classes are numbered
    when the summed batches are trained on)."""
    tokens = Tokens(mark("tokens")).query(db)
    labels = Labels(mark("labels"), label=mark("label_column")).query(db)
    label = exp.column("label", "x")
    classes = (
        exp.select(label.as_("label"), label.copy().as_("class_id"))
        .distinct()
        .from_(labels.copy().subquery("x"))
    )
    labeled = Labeled(labels, classes)

    def rows(
        statistic: str, insert: exp.Expr, label: str, word: exp.Expr, count: str
    ) -> exp.Select:
        assert isinstance(insert, exp.Insert)
        insert.expression.set("order", None)  # (a statistic's rows have no order)
        return exp.select(
            exp.convert(statistic).as_("statistic"),
            exp.column(label, "r").as_("label"),
            word.as_("word"),
            exp.cast(exp.column(count, "r"), "DOUBLE").as_("count"),
        ).from_(insert.expression.subquery("r"))

    documents = templates.render("train/classes.sql", model=MODEL, labeled=labeled.rows)
    union: exp.Query = rows(
        DOCUMENTS, documents, "class_id", exp.cast(exp.null(), "VARCHAR"), "n_docs"
    )
    for counting, statistic in STATISTICS.items():
        the_kind = next(k for k in TEXT_KINDS if k.counting == counting)
        (insert,) = the_kind.count(MODEL, {"sqlnb_input": tokens}, labeled, resolved(the_kind, {}))
        union = exp.union(
            union,
            rows(statistic, insert, "class_id", exp.column("word", "r"), "count"),
            distinct=False,
        )
    return _sql(
        union,
        dialect,
        {
            "tokens": "{{ tokens }}",
            "labels": "{{ labels }}",
            "label_column": "{{ sqlnb.quote(label_column) }}",
        },
    )


# --- train and predict ------------------------------------------------------------------------


def _general(kind_name: str) -> Entry:
    """A model of the kind in the general shape of its prediction (probability-0 factors
    allowed for: alpha and beta 0), whatever the macro's alpha."""
    the_kind = KINDS[kind_name]
    params = {**resolved(the_kind, {}), "alpha": 0.0}
    if "beta" in params:
        params["beta"] = 0.0
    return Entry(MODEL, kind_name, params, "VARCHAR")


def _predict_tree(
    db: Database,
    kind_name: str,
    proba: bool,
    leading: list[tuple[str, exp.Query]],
    dialect: str | None = None,
) -> exp.Select:
    """The prediction of a kind, built for the adapter's engine ``dialect`` (its form of the
    posterior: one GROUP BY over lists where the engine has them, windows elsewhere)."""
    return prediction(db, _general(kind_name), Tokens(mark("tokens")), proba=proba, guard=False,
                      check=False, calibrate=False, leading=leading, dialect=dialect)  # fmt: skip


def _read_tables(tree: exp.Expr) -> list[str]:
    """The tables (not CTEs, not arguments) a query reads: the model's tables."""
    ctes = {c.alias_or_name for c in tree.find_all(exp.CTE)}
    names = {t.name for t in tree.find_all(exp.Table)}
    return sorted(n for n in names - ctes if not n.startswith(MARK))


def _model_tables(db: Database) -> list[ModelTable]:
    """The tables prediction reads for any text kind: the parts of the model relation."""
    every = {t.name: t for k in TEXT_KINDS for t in tables(k)}
    read = {
        n
        for k in TEXT_KINDS
        for p in (False, True)
        for n in _read_tables(_predict_tree(db, k.name, p, []))
    }
    unknown = read - set(every)
    if unknown:
        raise SqlnbError(f"prediction reads tables the package does not derive: {sorted(unknown)}")
    return [every[n] for n in sorted(read)]


def _part(table: ModelTable) -> str:
    return table.name.removeprefix("sqlnb_")


def _columns(parts: list[ModelTable]) -> dict[str, str]:
    """The model relation's columns after ``part``, and their types (label: the labels')."""
    found: dict[str, str] = {}
    for table in parts:
        for name, sql_type in table.types().items():
            if name != "model":
                found.setdefault(name, sql_type)
    return {**found, "kind": "VARCHAR"}


def _row(
    part: str, columns: dict[str, str], table: str | None, has: dict[str, str], kind: str = ""
) -> exp.Select:
    """A row of the model relation: its ``part``, the columns the ``table`` ``has``, NULL in
    the others (the label's untyped: it takes the labels' type), and the model's ``kind``."""
    values = [
        exp.column(c) if c in has else exp.null() if c == "label" else exp.cast(exp.null(), t)
        for c, t in columns.items()
        if c != "kind"
    ]
    kind_value = exp.convert(kind) if kind else exp.cast(exp.null(), "VARCHAR")
    row = exp.select(
        exp.convert(part).as_("part"),
        *(v.as_(c) for v, c in zip(values, columns)),
        kind_value.as_("kind"),
    )
    return row.from_(table) if table else row


def _as_model(parts: list[ModelTable]) -> list[tuple[str, exp.Query]]:
    """The model's tables as CTEs over the rows of the model relation (the argument)."""
    found: list[tuple[str, exp.Query]] = []
    for table in parts:
        names = [n for n in table.types() if n != "model"]
        query = (
            exp.select(exp.convert(MODEL).as_("model"), *(exp.column(n, "m").as_(n) for n in names))
            .from_(exp.table_(mark("model"), quoted=True).as_("m"))
            .where(exp.column("part", "m").eq(exp.convert(_part(table))))
        )
        found.append((table.name, query))
    return found


def _predict(db: Database, dialect: str, proba: bool, parts: list[ModelTable]) -> str:
    """``sqlnb predict --tokens``'s query of each text kind over the model relation; kinds
    whose queries are the same share one, and the model's kind (its row of part 'model')
    picks the query that reads the tokens: the others read none (a filter on the whole
    result would let both run: three times the CLI's time)."""
    groups: dict[str, list[str]] = {}
    trees: dict[str, exp.Select] = {}
    for the_kind in TEXT_KINDS:
        tree = _predict_tree(db, the_kind.name, proba, _as_model(parts), dialect)
        key = tree.sql("duckdb")
        groups.setdefault(key, []).append(the_kind.name)
        trees[key] = tree
    union: exp.Query | None = None
    for key, names in groups.items():
        kinds = (
            exp.select(exp.convert(1))
            .from_(exp.table_(mark("model"), quoted=True).as_("k"))
            .where(exp.column("part", "k").eq(exp.convert("model")))
            .where(exp.column("kind", "k").isin(*(exp.convert(n) for n in names)))
        )
        branch = trees[key]
        for table in list(branch.find_all(exp.Table)):
            if table.name == mark("tokens"):
                mine = exp.select("*").from_(table.copy().as_("t")).where(exp.Exists(this=kinds))
                table.replace(mine.subquery(table.alias_or_name))
        one = exp.select("*").from_(branch.subquery("p"))
        union = one if union is None else exp.union(union, one, distinct=False)
    assert union is not None
    return _sql(union, dialect, {"model": "{{ model }}", "tokens": "{{ tokens }}"})


def _train(kind_name: str, dialect: str, parts: list[ModelTable]) -> str:
    """The parameter rows of a model of the kind: the summed statistics, the classes numbered
    (``sql/input/classes.sql``), and the kind's deriving statements (``training.parameters``)
    as CTEs of the tables they fill; one row per row of each table prediction reads."""
    the_kind = next(k for k in TEXT_KINDS if k.name == kind_name)
    params = resolved(the_kind, {"alpha": ALPHA})
    summed = (
        exp.select(
            *(exp.column(c, "c").as_(c) for c in ("statistic", "label", "word")),
            exp.Sum(this=exp.column("count", "c")).as_("count"),
        )
        .from_(exp.table_(mark("counts"), quoted=True).as_("c"))
        .group_by(*(exp.column(c, "c") for c in ("statistic", "label", "word")))
    )

    def of(statistic: str) -> exp.Select:
        return (
            exp.select(exp.column("label", "s").as_("label"))
            .from_(exp.to_table("sqlnb_summed").as_("s"))
            .where(exp.column("statistic", "s").eq(exp.convert(statistic)))
        )

    def numbered(statistic: str, *columns: tuple[str, str]) -> exp.Select:
        return (
            exp.select(
                exp.convert(MODEL).as_("model"),
                exp.column("class_id", "n").as_("class_id"),
                *(exp.column(c, "s").as_(a) for c, a in columns),
            )
            .from_(exp.to_table("sqlnb_summed").as_("s"))
            .join(
                exp.to_table("sqlnb_numbered").as_("n"),
                on=exp.column("label", "n").eq(exp.column("label", "s")),
            )
            .where(exp.column("statistic", "s").eq(exp.convert(statistic)))
        )

    ctes: list[tuple[str, exp.Query, list[str] | None]] = [
        ("sqlnb_summed", summed, None),
        ("sqlnb_numbered", templates.select("input/classes.sql", labels=of(DOCUMENTS)), None),
        (CLASSES.name, numbered(DOCUMENTS, ("label", "label"), ("count", "n_docs")), None),
        (
            "sqlnb_word_counts",
            numbered(STATISTICS[the_kind.counting], ("word", "word"), ("count", "count")),
            None,
        ),
    ]
    derived = {t.name for t in tables(the_kind) if not t.counts}
    # 0 classes: any number (the SQL may not be written for one)
    for statement in training.parameters(MODEL, the_kind, params, "VARCHAR", 0):
        target = statement.this.find(exp.Table) if isinstance(statement, exp.Insert) else None
        if target is not None and target.name in derived:
            filled = [c.name for c in statement.this.expressions]
            ctes.append((target.name, statement.expression, filled))
    rows = [_row(_part(t), _columns(parts), t.name, t.types()) for t in parts]
    rows.append(_row("model", _columns(parts), None, {}, kind_name))
    union: exp.Query = rows[0]
    for row in rows[1:]:
        union = exp.union(union, row, distinct=False)
    query = exp.select("*").from_(union.subquery("p"))
    for name, cte, names in ctes:
        alias = exp.TableAlias(
            this=exp.to_identifier(name),
            columns=[exp.to_identifier(c) for c in names] if names else None,
        )
        query = query.with_(alias, as_=cte, copy=False)
    return _sql(query, dialect, {"counts": "{{ counts }}", "alpha": "{{ alpha }}"})


# --- the package ------------------------------------------------------------------------------

HEADER = "{#- Generated by `sqlnb dbt-package` from sqlnb's SQL: do not edit. -#}\n"
PROJECT = """\
# Generated by `sqlnb dbt-package`: the dbt package of sqlnb (Naive Bayes in SQL).
name: sqlnb
version: "{version}"
config-version: 2
require-dbt-version: [">=1.11.0", "<2.0.0"]
macro-paths: ["macros"]
"""


def _adapter(db: Database, adapter: str, dialect: str, parts: list[ModelTable]) -> str:
    """The macros of one adapter: its tokenizer, counts, train and predict queries."""
    d = dialects.dialect(dialect)
    spelled = sqlglot.Dialect.get_or_raise(d.sqlglot)
    escapes, end = spelled.tokenizer_class.STRING_ESCAPES, spelled.IDENTIFIER_END
    literal = 'value | replace("\'", "\'\'")'
    if "\\" in escapes:
        literal = "value | replace('\\\\', '\\\\\\\\') | replace(\"'\", \"\\\\'\")"
    out = [
        HEADER,
        f"{{% macro {adapter}__quote(name) %}}{{{{ return('{end}' ~ (name | replace('{end}', "
        f"'{end}{end}')) ~ '{end}') }}}}{{% endmacro %}}\n",
        f'{{% macro {adapter}__literal(value) %}}{{{{ return("\'" ~ ({literal}) ~ "\'") }}}}'
        "{% endmacro %}\n",
        f"{{% macro {adapter}__no_stop_words() %}}{_sql(tokenizer._words(()).this, dialect, {})}"
        "{% endmacro %}\n",
        _tokenize_macro(db, adapter, dialect),
        f"{{% macro {adapter}__counts(tokens, labels, label_column) %}}\n"
        f"{_counts(db, dialect)}\n{{% endmacro %}}\n",
        f"{{% macro {adapter}__train(counts, kind, alpha) %}}\n",
    ]
    for i, the_kind in enumerate(TEXT_KINDS):
        out.append(f"{'{%- if' if i == 0 else '{%- elif'} kind == '{the_kind.name}' %}}\n")
        out.append(_train(the_kind.name, dialect, parts) + "\n")
    out.append("{%- endif %}\n{% endmacro %}\n")
    out.append(f"{{% macro {adapter}__predict(model, tokens, proba) %}}\n{{%- if proba %}}\n")
    out.append(_predict(db, dialect, True, parts) + "\n{%- else %}\n")
    out.append(_predict(db, dialect, False, parts) + "\n{%- endif %}\n{% endmacro %}\n")
    return "".join(out)


def files() -> dict[str, str]:
    """The package's files (path -> text), as ``sqlnb dbt-package`` writes them."""
    kinds = ", ".join(repr(k.name) for k in TEXT_KINDS)
    interface = (templates.sql_dir() / "dbt" / "interface.jinja").read_text(encoding="utf-8")
    interface = interface.replace("@KINDS@", kinds).replace("@MAX_NGRAM@", str(tokenizer.MAX_NGRAM))
    interface = interface.replace("@ADAPTERS@", ", ".join(ADAPTERS))
    found = {"dbt_project.yml": PROJECT.format(version=__version__), "macros/sqlnb.sql": interface}
    with _builder() as db:
        parts = _model_tables(db)
        for adapter, dialect in ADAPTERS.items():
            found[f"macros/{adapter}.sql"] = _adapter(db, adapter, dialect, parts)
    return found


def write(folder: str | Path) -> list[str]:
    """Write the package into ``folder`` (created if missing; files sqlnb did not write there
    are left alone); returns the paths written."""
    root = Path(folder)
    written = []
    for path, text in files().items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(str(target))
    return written
