"""The SQL functions of each engine, one class each behind :class:`sqlnb.functions.forms.Form`,
named by the engine's dialect (``Dialect.functions``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from sqlnb import templates
from sqlnb.errors import SqlnbError
from sqlnb.functions import clickhouse, lists, rows, wrap
from sqlnb.functions.forms import Plain, Statement
from sqlnb.functions.shape import TOKENS_ARG

if TYPE_CHECKING:
    from sqlnb.engine import Database
    from sqlnb.functions.shape import Shape


class DuckDBMacros(Plain):
    """DuckDB's macros: sqlnb_classify and sqlnb_proba in the list form over the model's lookup
    row, sqlnb_predict(model, tokens_table) the rows form over the table it names."""

    lookup_rows = True

    def functions(self, db: Database, shape: Shape) -> list[Statement]:
        listed = lists.listed(shape)
        table_function = db.dialect.table_function
        label, proba = (rows.checked_text(listed[c], table_function) for c in ("label", "proba"))
        source = exp.Table(this=exp.Anonymous(this="query_table", expressions=[TOKENS_ARG]))
        table = rows.table(source, shape)
        return [
            *lists.made(db),  # the table of stored lookup rows, before the macros that read it
            templates.render("macros/classify.sql", body=label),
            templates.render("macros/proba.sql", body=proba),
            templates.render("macros/predict.sql", body=table.subquery("b")),
        ]

    def stale(self, db: Database, model: str | None, record: exp.Table | None) -> list[Statement]:
        return list(lists.forget(db, model, record))

    def outdated(self, db: Database) -> list[Statement]:
        return list(lists.outdated(db))


class PostgresFunctions(Plain):
    """PostgreSQL's SQL and PL/pgSQL functions: a branch per model signature, each the pipeline
    ``predict`` runs for it (:func:`rows.branches`), the rows form of any model otherwise."""

    by_model = True

    def functions(self, db: Database, shape: Shape) -> list[Statement]:
        label, proba = rows.scalars(db, shape)  # (a list with a multi-label model: shape.multi)
        table = rows.table(exp.table_(wrap.SOURCE, db="pg_temp"), shape)
        branches = rows.branches(db, shape)
        return list(wrap.postgres(db, label, proba, table, branches, self.labels(shape)))

    def check(self, db: Database, shape: Shape) -> None:
        """A write that makes sqlnb_classify return another type (a model trained or dropped
        with several labels per document: TEXT[] when the database has one, TEXT otherwise)
        drops the function, which PostgreSQL refuses while a view uses it: refused here in one
        line naming the view, before the drop (the write's transaction then leaves the
        database as it was)."""
        wanted = self.labels(shape)
        found = wrap.retyped(db, wanted)
        if found:
            users, old = ", ".join(what for what, _ in found), found[0][1]
            raise SqlnbError(
                f"{users} uses sqlnb_classify, which returns {old}; after this write it would "
                f"return {wanted.lower()} (a list when the database has a multi-label model): "
                f"drop the view first and create it again after, or keep multi-label models "
                f"in another schema"
            )

    @staticmethod
    def labels(shape: Shape) -> str:
        """The type sqlnb_classify returns: a list in a database with a multi-label model."""
        return "TEXT[]" if shape.multi else "TEXT"


class SparkFunctions(Plain):
    """Spark's SQL functions: the rows form of any model (no table function: IDENTIFIER()
    takes only a constant), in the label modes of the database's shape (:func:`rows.scalars`):
    with a multi-label model, sqlnb_classify returns an array; a hierarchical model walked."""

    def functions(self, db: Database, shape: Shape) -> list[Statement]:
        label, proba = rows.scalars(db, shape)
        return list(wrap.spark(db, label, proba, "ARRAY<STRING>" if shape.multi else "STRING"))


class ClickHouseFunctions(Plain):
    """ClickHouse's lambdas over dictionaries (:mod:`sqlnb.functions.clickhouse`): the server's
    functions, for the shapes of every database's models; each write writes the model's
    dictionary rows again."""

    def functions(self, db: Database, shape: Shape) -> list[Statement]:
        return list(clickhouse.statements(db, shape))

    def where(self, db: Database) -> str:
        return clickhouse.database(db)

    def serves(self, db: Database, keys: list[str]) -> list[str]:
        return clickhouse.shared(db, keys)

    def rows(self, db: Database, models: list[str] | None = None) -> list[Statement]:
        return clickhouse.rows(db, models)
