"""How sqlnb writes a function's tree into an engine's function: the rows form's trees
(:mod:`sqlnb.functions.rows`, engine-neutral) wrapped as PostgreSQL's SQL and PL/pgSQL
functions, Spark's SQL functions, or run by SQLite's Python functions, DuckDB's error() as the
engine's own. DuckDB's macros are the trees as they are (``sql/macros/*.sql``)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from sqlglot import exp

from sqlnb.templates import sql_dir

if TYPE_CHECKING:
    from sqlnb.engine import Database

MODEL = "sqlnb_model"  # the functions' parameters: the model's name and the text
SOURCE = "sqlnb_tokens_source"  # PostgreSQL's sqlnb_predict: the table, put in by format()
ID_TYPE = "sqlnb_id_type"  # ... and the type of its ids, the type of its third argument
# PostgreSQL's text types: sqlnb_classify and sqlnb_proba take each pair (sql/functions/
# postgres/typed.sql.in), so that a call finds its exact match in the models' schema.
TEXT_TYPES = ("TEXT", "VARCHAR", "BPCHAR")


def postgres(
    db: Database,
    label: exp.Expr,
    proba: exp.Expr,
    table: exp.Select,
    branches: Sequence[tuple[Sequence[str], Mapping[str, exp.Expr]]] = (),
    labels: str = "TEXT",
) -> list[str]:
    """The PostgreSQL functions: sqlnb_classify and sqlnb_proba are PL/pgSQL functions that
    run, for a model of one of the ``branches`` (its models, and its "label" and "proba"
    queries: the pipeline ``predict`` runs for them), that branch's query, and otherwise the
    checks of ``label`` and ``proba`` (an unknown model, one without a tokenizer: errors);
    PL/pgSQL keeps each query's plan for the session. sqlnb_predict runs the table pipeline
    with the table put in by format() and the model bound as $1. DuckDB's error() becomes
    sqlnb_raise(). Each is created in the models' schema and names every table with it (the
    statements are built on the database, whose backend qualifies them)."""
    schema = db.backend.schema or "public"
    ident = exp.to_identifier(schema, quoted=True).sql("postgres")
    raise_in_schema = exp.Dot(this=exp.to_identifier(schema, quoted=True), expression=RAISE)

    def fill(name: str, **values: str) -> str:
        return filled("postgres", name, schema=ident, **values)

    id_type = exp.DataType.build(ID_TYPE, udt=True)  # the type of the third argument
    typed = [
        exp.cast(exp.column("doc_id", "r"), id_type).as_("doc_id"),
        exp.cast(exp.column("label", "r"), "TEXT").as_("label"),
    ]
    rows = exp.select(*typed, exp.column("proba", "r")).from_(table.subquery("r"))
    model = {MODEL: exp.Parameter(this=exp.convert(1))}
    query_tree = bound(raising(rows, "BOOLEAN", raise_in_schema), model)
    source = exp.table_(SOURCE, db="pg_temp").sql("postgres")  # left as it is, then %1$s
    query = db.sql(query_tree).replace("%", "%%").replace(source, "%1$s")  # for format()
    query = query.replace(id_type.sql("postgres"), "%2$s")

    def body(column: str, checked: exp.Expr, type_name: str) -> str:
        steps = []
        for models, values in branches:
            mine = exp.column(MODEL).isin(*(exp.convert(m) for m in models))
            value = db.sql(raising(values[column], type_name, raise_in_schema))
            steps.append(f"IF {db.sql(mine)} THEN RETURN {value}; END IF;")
        fallback = db.sql(raising(checked, type_name, raise_in_schema))
        return "\n".join([*steps, f"RETURN {fallback};"])

    overloads = [
        fill("typed", function=function, model_type=m, text_type=t, returns=returns)
        for function, returns in (("sqlnb_classify", labels), ("sqlnb_proba", "DOUBLE PRECISION"))
        for m, t in itertools.product(TEXT_TYPES, TEXT_TYPES)
        if (m, t) != ("TEXT", "TEXT")
    ]
    return [
        fill("raise"),
        fill(
            "retype",
            schema_text=exp.Literal.string(ident).sql("postgres"),
            returns=labels,
            returns_text=exp.Literal.string(labels).sql("postgres"),
        ),
        fill("classify", body=body("label", label, labels), returns=labels),
        fill("proba", body=body("proba", proba, "DOUBLE PRECISION")),
        *overloads,
        fill(
            "predict",
            query=exp.Literal.string(query).sql("postgres"),
            schema_text=exp.Literal.string(ident).sql("postgres"),
        ),
        fill("predict_text"),
    ]


def retyped(db: Database, labels: str) -> list[tuple[str, str]]:
    """What keeps sqlnb_classify of the models' schema from becoming a function that returns
    ``labels`` (a retyping drops it: sql/functions/postgres/retype.sql.in): each view or other
    object of the database that uses one returning another type, and that type's name."""
    schema = exp.Literal.string(
        exp.to_identifier(db.backend.schema or "public", quoted=True).sql("postgres")
    )
    text = filled(
        "postgres",
        "dependents",
        schema_text=schema.sql("postgres"),
        returns=labels,
        returns_text=exp.Literal.string(labels).sql("postgres"),
    )
    return [(str(what), str(old)) for what, old in db.fetch_text(text)]


def spark(db: Database, label: exp.Expr, proba: exp.Expr, labels: str = "STRING") -> list[str]:
    """The Spark SQL functions sqlnb_classify (returning ``labels``) and sqlnb_proba: the scalar
    pipeline of the macros, DuckDB's error() as Spark's raise_error()."""
    fail = exp.Anonymous(this=db.dialect.fail or "raise_error")
    return [
        filled("spark", "classify", body=db.sql(raising(label, None, fail)), returns=labels),
        filled("spark", "proba", body=db.sql(raising(proba, None, fail))),
    ]


def filled(dialect: str, name: str, **values: str) -> str:
    """sql/functions/<dialect>/<name>.sql.in with each {key} replaced by its text (a function's
    body is a string to the engine, so it is pasted in whole), and {quoted} by a dollar quote
    that the text between never holds: no text of a user's (a stop word, a pattern) can close
    it."""
    text = (sql_dir() / "functions" / dialect / f"{name}.sql.in").read_text("utf-8")
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    tag = next(f"$sqlnb{i or ''}$" for i in itertools.count() if f"$sqlnb{i or ''}$" not in text)
    return text.replace("{quoted}", tag)


def bound(tree: exp.Expr, values: Mapping[str, exp.Expr]) -> exp.Expr:
    """``tree`` with the functions' parameters (unqualified columns sqlnb_model, sqlnb_text)
    as the given expressions: placeholders, PostgreSQL's $1."""
    for reference in list(tree.find_all(exp.Column)):
        if not reference.table and reference.name in values:
            reference.replace(values[reference.name].copy())
    return tree


RAISE = exp.Anonymous(this="sqlnb_raise")  # PostgreSQL's and SQLite's error(message)


def raising(tree: exp.Expr, type_name: str | None, raising: exp.Expr = RAISE) -> exp.Expr:
    """``tree`` with DuckDB's error(message) as the function ``raising`` (an Anonymous call,
    or a Dot: schema.function), cast to ``type_name`` (PostgreSQL: the CASE that holds it takes
    the type of its other branches)."""
    tree = tree.copy()
    for call in list(tree.find_all(exp.Anonymous)):
        if call.name.upper() == "ERROR":
            raised = raising.copy()
            (raised.expression if isinstance(raised, exp.Dot) else raised).set(
                "expressions", [e.copy() for e in call.expressions]
            )
            if type_name is not None:
                raised = exp.cast(raised, exp.DataType.build(type_name, dialect="postgres"))
            call.replace(raised)
    return tree
