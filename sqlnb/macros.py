"""SQL macros in a DuckDB database, so that any client can classify without sqlnb:

    SELECT id, sqlnb_classify('spam', body), sqlnb_proba('spam', body) FROM emails;
    SELECT * FROM sqlnb_predict('spam', 'new_tokens');

They are rewritten, in the same transaction, whenever a model is trained or dropped: each holds
the shared prediction pipeline of every text model, chosen by name. A model trained from a
tokens table has no tokenizer of its own: its macros tokenize with the default settings.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from sqlglot import exp

from sqlnb import catalog, pipeline, templates
from sqlnb.catalog import Entry
from sqlnb.engine import Database
from sqlnb.inputs import Docs, Tokens, type_family
from sqlnb.tokenizer import Tokenizer

MACROS = ("sqlnb_classify", "sqlnb_proba", "sqlnb_predict")


@dataclass(frozen=True)
class _Text(Docs):
    """The macro's text argument as a one-row docs table."""

    def node(self) -> exp.Expr:
        return exp.select(
            exp.convert(1).as_("doc_id"), exp.column("sqlnb_text").as_("text")
        ).subquery("s")

    def check(self, db: Database) -> None:
        pass


@dataclass(frozen=True)
class _TokensArgument(Tokens):
    """The macro's tokens-table argument, read with query_table()."""

    def query(self, db: Database) -> exp.Select:
        source = exp.Table(
            this=exp.Anonymous(this="query_table", expressions=[exp.column("sqlnb_tokens")])
        )
        return self.render(templates.col("count", quoted=True), source)


def refresh(db: Database) -> None:
    """Rewrite the macros for the database's text models (or drop them), where the engine has
    macros."""
    if db.dialect.name != "duckdb":
        return
    entries = [catalog.entry(db, m["model"]) for m in catalog.entries(db)]
    for statement in statements(db, entries):
        db.execute(statement)


def statements(db: Database, entries: list[Entry]) -> list[exp.Expr]:
    """The statements that (re)create the macros for these text models, or drop them."""
    models = [e for e in entries if Docs in e.kind.reads]
    if not models:
        return [templates.render("macros/drop.sql", macro=exp.to_table(name)) for name in MACROS]
    mixed = len({type_family(m.label_type) for m in models}) > 1
    name = exp.column("sqlnb_model")

    def scalar(column: str) -> exp.Expr:
        ifs = []
        for m in models:
            query = pipeline.prediction(
                db, _with_tokenizer(m), _Text("sqlnb_text"), check=False, guard=False
            )
            value: exp.Expr = exp.column(column)
            if column == "label" and mixed:
                value = exp.cast(value, "VARCHAR")
            pick = exp.select(value).from_(query.subquery("q"))
            ifs.append(exp.If(this=name.eq(exp.convert(m.name)), true=pick.subquery()))
        return exp.Case(ifs=ifs)

    branches = []
    for m in models:
        query = pipeline.prediction(
            db, m, _TokensArgument("sqlnb_tokens"), check=False, guard=False
        )
        label: exp.Expr = exp.column("label")
        if mixed:
            label = exp.cast(label, "VARCHAR")
        branches.append(
            exp.select(exp.column("doc_id"), label.as_("label"), exp.column("proba"))
            .from_(query.subquery("q"))
            .where(name.eq(exp.convert(m.name)))
        )
    union: exp.Query = branches[0]
    for branch in branches[1:]:
        union = exp.union(union, branch, distinct=False)
    return [
        templates.render("macros/classify.sql", body=scalar("label")),
        templates.render("macros/proba.sql", body=scalar("proba")),
        templates.render("macros/predict.sql", body=union.subquery("b")),
    ]


def _with_tokenizer(entry: Entry) -> Entry:
    if entry.params.get("tokenizer"):
        return entry
    params = {**entry.params, "tokenizer": Tokenizer().as_dict()}
    return dataclasses.replace(entry, params=params)
