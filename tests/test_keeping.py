"""Spark's overwrites of a model's partition keep a statement's WITH clause wherever sqlglot
put it (on the INSERT, as a statement that begins with WITH parses)."""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from sqlnb import catalog, keeping
from sqlnb.engine import dialects


def _with_on_insert(table: str, columns: str, values: str) -> exp.Insert:
    statement = sqlglot.parse_one(
        f"WITH a AS (SELECT 1 AS n) INSERT INTO {table} ({columns}) SELECT {values} FROM a",
        read="spark",
    )
    assert isinstance(statement, exp.Insert) and statement.args.get("with_") is not None
    return statement


def test_a_keeping_overwrite_keeps_the_statements_with() -> None:
    statement = _with_on_insert("t", "n", "n")
    statement.this.this.set("partition", exp.Partition(expressions=[exp.column("model").eq("m")]))
    text = " ".join(dialects.script([keeping.keeping(statement, "m", "m~v1")], "spark").split())
    assert text.startswith("WITH a AS ( SELECT 1 AS n ) INSERT OVERWRITE TABLE t PARTITION(model)")


def test_a_deletes_overwrite_keeps_the_statements_with() -> None:
    delete = catalog.deletes("m", [catalog.CLASSES])[0]
    insert = _with_on_insert("sqlnb_classes", "n, model", "n, 'm'")
    done = catalog.overwrites([delete, insert], "m", dialects.dialect("spark"))
    text = " ".join(dialects.script(done, "spark").split())
    assert len(done) == 1
    assert text.startswith("WITH a AS ( SELECT 1 AS n ) INSERT OVERWRITE TABLE sqlnb_classes")
