"""A written model's catalog row, as its write records it (issue 38: nothing read back after a
write where the engine returns what an INSERT wrote), and the check that its counts add up.

Every write of a model ends with the INSERT of its catalog row (:func:`sqlnb.catalog.record`),
after its counts and derived tables. Where the engine returns the rows an INSERT wrote
(``Backend.returns_rows``: DuckDB, SQLite 3.35+, PostgreSQL), that INSERT returns the row
as :func:`sqlnb.catalog.row` reads it, and writes it only where the model's counts add up to
finite numbers; elsewhere (Spark, ClickHouse) the row and the sums are read once after the
write (:func:`written`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from sqlglot import exp

from sqlnb import templates
from sqlnb.catalog import CLASSES, RECORD, Entry, hint
from sqlnb.engine import Database, dialects
from sqlnb.errors import SqlnbError
from sqlnb.kinds import Kind
from sqlnb.kinds.tfidf import DOC_COUNT, DOC_FREQ, Tfidf

Row = dict[str, Any]
_CLASSES = f"{CLASSES.name}.n_docs"  # the catalog row's n_docs is its sum (catalog/record.sql)


def execute(
    db: Database, statement: exp.Expr, the_kind: Kind, params: dict[str, Any]
) -> list[Row] | None:
    """Run one of the statements that write a model of ``the_kind`` (and ``params``). The one
    that inserts its catalog row (:func:`sqlnb.catalog.record`), where the engine returns the
    rows an INSERT wrote, returns that row, and writes it only where the model's counts add up
    to finite numbers (else it writes none and returns none: :func:`written` then says why).
    None: a statement that returns nothing."""
    model = statement.meta.get(RECORD)
    if model is None or not db.backend.returns_rows or not isinstance(statement, exp.Insert):
        db.execute(statement)
        return None
    insert = statement.copy()
    sums = [exp.func("COALESCE", s, exp.convert(0)) for _, s in _sums(model, the_kind, params)]
    finite = [exp.Mul(this=s, expression=exp.convert(0)).eq(0) for s in sums]
    insert.expression.where(*finite, copy=False)
    shown = [_unqualified(s) for s in templates.select("catalog/models.sql").selects]
    insert.set("returning", exp.Returning(expressions=shown))
    first, *after = dialects.statements_for(insert, db.dialect)  # (SQLite: then an ANALYZE)
    rows = [dict(zip((s.alias_or_name for s in shown), r)) for r in db.fetch(first)]
    for statement in after:
        db.execute(statement)
    return rows


def _unqualified(node: exp.Expr) -> exp.Expr:
    """``node`` with its columns' table qualifiers dropped (a RETURNING clause's columns)."""
    return node.transform(lambda n: exp.column(n.name) if isinstance(n, exp.Column) else n)


def written(
    db: Database,
    model: str,
    the_kind: Kind,
    params: dict[str, Any],
    returned: list[Row] | None = None,
) -> tuple[Entry, str | None]:
    """Model ``model`` of ``the_kind`` and ``params`` as the catalog records it once written,
    and what :func:`counted_flaws` says of its counts: as its INSERT ``returned`` it
    (:func:`execute`; no row: its counts are not finite, read here to say which), else one
    read (a training reads nothing else back), the classes' sum as the row has it (n_docs)."""
    if returned:  # (SQLite returns a value before its column's type: n_docs 3, not 3.0)
        found = {**returned[0], "n_docs": _float(returned[0]["n_docs"])}
        return _entry(model, found), None
    problem = counted_flaws(db, model, the_kind, params) if returned is not None else None
    if problem is not None:  # (refused: no catalog row was written)
        return Entry(model, the_kind.name, {}, ""), problem
    sums = _sums(model, the_kind, params, classes=False)
    query = templates.select("catalog/models.sql").where(
        exp.column("model", "m").eq(exp.convert(model)), copy=False
    )
    query = query.select(*(s.as_(f"sqlnb_s{i}") for i, (_, s) in enumerate(sums)), copy=False)
    rows = db.fetch_dicts(query)
    if not rows:
        raise SqlnbError(f"no model named {model!r} in this database{hint(db, model)}")
    found = rows[0]
    totals = [found["n_docs"], *(found.pop(f"sqlnb_s{i}") for i in range(len(sums)))]
    problem = _overflow([(_CLASSES, exp.null()), *sums], totals)
    return _entry(model, found), problem


def _entry(model: str, found: Row) -> Entry:
    return Entry(model, found["kind"], json.loads(found["params"]), found["label_type"], found)


def counted_flaws(db: Database, model: str, the_kind: Kind, params: dict[str, Any]) -> str | None:
    """Whether a model's counts, just counted from checked inputs (finite, non-negative), add
    up to finite numbers (counts near the largest double overflow when they are summed), or
    why not; one query."""
    sums = _sums(model, the_kind, params)
    found = db.fetch(exp.select(*(s.as_(f"s{i}") for i, (_, s) in enumerate(sums))))[0]
    return _overflow(sums, found)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _sums(
    model: str, the_kind: Kind, params: dict[str, Any], *, classes: bool = True
) -> list[tuple[str, exp.Expr]]:
    """Each amount of the model's counts (table.column) and the query of its sum, but in the
    tables it has no rows in (a document transform's, without one: sqlnb.versions.empty's
    rule; on Spark each sum is a job) and, without ``classes``, the classes' documents."""
    none = () if Tfidf.of(params) is not None else (DOC_FREQ.name, DOC_COUNT.name)
    tables = (*([CLASSES] if classes else []), *(t for t in the_kind.tables if t.counts))
    sums: list[tuple[str, exp.Expr]] = []
    for table in (t for t in tables if t.name not in none):
        for name in table.amounts:
            total = (
                exp.select(exp.Sum(this=exp.column(name)))
                .from_(table.node())
                .where(exp.column("model").eq(exp.convert(model)), copy=False)
            )
            sums.append((f"{table.name}.{name}", total.subquery(copy=False)))
    return sums


def _overflow(sums: list[tuple[str, exp.Expr]], found: Sequence[Any]) -> str | None:
    for (what, _), total in zip(sums, found):
        if total is not None and not math.isfinite(float(total)):
            return f"the sum of {what} is not a finite number"
    return None
