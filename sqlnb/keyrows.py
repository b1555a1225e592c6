"""The rows of a model kept under a version's key, where the engine has no transactions
(Spark: :mod:`sqlnb.keeping`, :func:`sqlnb.versions.before_write`).

A write that keeps the version it replaces under the version's key does not take the version's
number until its last statement (:func:`sqlnb.keeping.record`). A write interrupted before it
leaves some tables' replaced rows under the key and its own rows under the name, so every write
keeps the rows it finds under the key and takes the name's only where the key has none: the
next write completes the keeping, and the replaced version is whole. A version dropped beyond
``--keep`` has its key's partitions emptied by one statement (:func:`emptying`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlglot import exp

from sqlnb import templates
from sqlnb.engine import dialects

if TYPE_CHECKING:
    from sqlnb.engine import Database


def replaced(
    table: exp.Table,
    columns: Sequence[str],
    name: str,
    key: str,
    *,
    again: bool = True,
    clear: bool = False,
) -> exp.Query:
    """The rows of model ``name`` in ``table`` (its ``columns`` but ``model``) under ``key``,
    unless rows are kept there already (then, ``again``: those, read back for an overwrite of
    the key's partition; else none). A write interrupted before it recorded the new version
    may have left the name holding its own rows, not the replaced ones. ``clear``: the key
    was read to hold no row of ``table`` (:func:`held`), so the name's rows, unguarded."""

    def under(model: str) -> exp.Select:
        return (
            exp.select(*(exp.column(c) for c in columns), exp.convert(key).as_("model"))
            .from_(table.copy())
            .where(exp.column("model").eq(exp.convert(model)))
        )

    if clear:
        return under(name)
    fresh = under(name).where(unkept(table, key), copy=False)
    return exp.union(fresh, under(key), distinct=False) if again else fresh


def unkept(table: exp.Table, key: str) -> exp.Expr:
    """True while ``table`` keeps no row under ``key``: a copy of the name's rows there
    (:func:`sqlnb.versions.moving`) is then the first, not a second one over an interrupted
    write's."""
    kept = exp.select("1").from_(table.copy()).where(exp.column("model").eq(exp.convert(key)))
    return exp.Not(this=exp.Exists(this=kept))


def held(db: Database, key: str, tables: Sequence[exp.Table]) -> frozenset[str]:
    """Which of ``tables`` keep a row under ``key``, in one read (``sql/versions/held.sql``):
    normally none, and a write's overwrite of a table that keeps none there takes the
    name's rows without a guard (:func:`unkept`: on Spark a job each, six a retraining)."""
    if not tables:
        return frozenset()
    parts = [
        templates.select("versions/held.sql", table=t, table_name=t.name, kept=key) for t in tables
    ]
    query: exp.Query = parts[0]
    for part in parts[1:]:
        query = exp.union(query, part, distinct=False)
    return frozenset(str(r[0]) for r in db.fetch(query))


def emptying(deletes: Sequence[exp.Expr], d: dialects.Dialect) -> list[exp.Expr]:
    """:func:`sqlnb.catalog.deletes` of one key's rows, as dialect ``d`` runs them best: where
    tables are partitioned by model, one statement that overwrites each partition with no rows,
    in their order (Spark's multi-insert: a version dropped beyond ``--keep`` emptied its
    partitions in a statement each, eight for a text model).

    >>> from sqlnb.catalog import CLASSES, PRIOR, deletes
    >>> done = emptying(deletes("m", [CLASSES, PRIOR]), dialects.dialect("spark"))
    >>> text = " ".join(dialects.script(done, "spark").split())
    >>> print(len(done), text[:29], text.count("INSERT OVERWRITE TABLE"))
    1 FROM ( SELECT 1 AS one ) AS s 2
    """
    overwrites = [dialects.by_model(s) for s in deletes] if d.partition_by_model else []
    if len(overwrites) < 2 or not all(isinstance(o, exp.Insert) for o in overwrites):
        return list(deletes)
    source = exp.select(exp.convert(1).as_("one")).subquery("s")
    return [exp.MultitableInserts(expressions=overwrites, source=source)]
