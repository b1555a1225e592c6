"""Keeping the version a write replaces inside the write's own overwrites (issue 38), where the
engine has no transactions but can overwrite several partitions of a table in one statement
(``Backend.keeps_in_overwrite``: Spark's dynamic partition overwrite).

A Spark write of model ``m`` overwrites each table's partition ``model = 'm'``. Keeping the
version it replaces cost a copy per table first (``INSERT INTO t SELECT 'm\\x1fvN' AS model,
... FROM t WHERE model = 'm'``). Here a table's overwrite writes both keys' partitions instead:
its new rows under ``m`` and the rows they replace under the version's key, read from the
partition being overwritten (Spark writes aside and swaps each partition when the job ends,
which is why it allows that read only in this mode). An interruption leaves each table's old
rows or its new ones under ``m``, never none. A partition the rows do not name is left as it
is, so only the tables whose write always has rows (:data:`NEVER_EMPTY`: a row per model or per
class) are written so, and a text model's word tables (:data:`WORDS`) where the training read
before its write that it learns a word (a training without one is refused there, before it
writes anything); the others are copied first, as before. The version rows
move last, in one statement with the new version's row (:func:`record`). Until then the
version's number is not taken, so a write interrupted before it is completed by the next one
(:mod:`sqlnb.keyrows`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from sqlglot import exp

from sqlnb import keyrows, templates
from sqlnb.catalog import CLASSES, MODELS, PRIOR, TOKENIZERS, VERSIONS, Entry
from sqlnb.kinds import ModelTable
from sqlnb.kinds.text import BASE, SCORING, WORD_COUNTS

if TYPE_CHECKING:  # (the writes import this module: it stays below them)
    from sqlnb.engine import Database
    from sqlnb.versions import Kept

# The tables every write of a model puts a row in (one a model, or one a class), when it
# writes them at all: a tokenizer's row is written with a tokenizer only.
NEVER_EMPTY = frozenset(t.name for t in (MODELS, CLASSES, PRIOR, TOKENIZERS, BASE))
# A text model's word tables: they have rows when the training learns a word, which a Spark
# training reads before it writes (Training.words, sql/text/has_word.sql).
WORDS = frozenset(t.name for t in (WORD_COUNTS, SCORING))


def folds(
    statements: Sequence[exp.Expr], name: str, tables: Iterable[ModelTable], *, words: bool = False
) -> frozenset[str]:
    """The tables of ``tables`` whose partition of model ``name`` the write's ``statements``
    overwrite with rows it always has (:data:`NEVER_EMPTY`; with ``words``, read before the
    write, the word tables too: :data:`WORDS`).

    >>> one = exp.insert("SELECT 1 AS n", "sqlnb_prior", columns=["n"], overwrite=True)
    >>> one.this.this.set("partition", exp.Partition(expressions=[exp.column("model").eq("m")]))
    >>> sorted(folds([one], "m", [PRIOR, CLASSES])), sorted(folds([one], "n", [PRIOR]))
    (['sqlnb_prior'], [])
    """
    wanted = {t.name for t in tables} & (NEVER_EMPTY | (WORDS if words else frozenset()))
    found = (overwritten(s, name) for s in statements)
    return frozenset(t for t in found if t is not None and t in wanted)


def overwritten(statement: exp.Expr, name: str) -> str | None:
    """The table whose partition of model ``name`` ``statement`` overwrites with a query's
    rows (:func:`sqlnb.catalog.overwrites`), or None."""
    if not isinstance(statement, exp.Insert) or not statement.args.get("overwrite"):
        return None
    schema = statement.this
    table = schema.this if isinstance(schema, exp.Schema) else None
    if not isinstance(table, exp.Table) or not isinstance(statement.expression, exp.Select):
        return None
    partition = table.args.get("partition")
    if partition is None or partition.expressions != [exp.column("model").eq(exp.convert(name))]:
        return None
    return str(table.name)


def rewritten(statements: Sequence[exp.Expr], name: str, done: Kept) -> list[exp.Expr]:
    """A write's ``statements``, those that overwrite a table of ``done.folded`` as
    :func:`keeping` them (``done``: what :func:`sqlnb.versions.before_write` did)."""
    if done.key is None:
        return list(statements)
    key, clear = done.key, done.clear
    return [
        keeping(s, name, key, clear=table in clear) if table in done.folded else s
        for s, table in ((s, overwritten(s, name)) for s in statements)
    ]


def keeping(statement: exp.Expr, name: str, key: str, *, clear: bool = False) -> exp.Expr:
    """An overwrite of model ``name``'s partition of a table (:func:`overwritten`) as one that
    also keeps the rows it replaces, under ``key``: both keys' partitions written by one job
    (``clear``: the key was read to hold none of the table's rows, :func:`keyrows.held`).

    >>> from sqlnb.engine import dialects
    >>> one = exp.insert("SELECT 1 AS n", exp.to_table("t"), columns=["n"], overwrite=True)
    >>> one.this.this.set("partition", exp.Partition(expressions=[exp.column("model").eq("m")]))
    >>> text = " ".join(dialects.script([keeping(one, "m", "m~v1")], "spark").split())
    >>> print(text[:74])
    INSERT OVERWRITE TABLE t PARTITION(model) ( n, model ) SELECT k.n, k.model
    >>> print(text[75:].replace(" UNION ALL ", " UNION ALL\\n").replace(" AND ", "\\nAND "))
    FROM ( SELECT 1 AS n, 'm' AS model UNION ALL
    SELECT n, 'm~v1' AS model FROM t WHERE model = 'm'
    AND NOT EXISTS( SELECT 1 FROM t WHERE model = 'm~v1' ) UNION ALL
    SELECT n, 'm~v1' AS model FROM t WHERE model = 'm~v1' ) AS k;
    """
    assert isinstance(statement, exp.Insert) and isinstance(statement.this, exp.Schema)
    table = statement.this.this
    columns = [c.name for c in statement.this.expressions]
    written = statement.expression.copy().select(exp.convert(name).as_("model"), copy=False)
    source = table.copy()
    source.set("partition", None)
    rows = exp.union(
        written, keyrows.replaced(source, columns, name, key, clear=clear), distinct=False
    )
    kept = _overwriting(ModelTable(table.name, tuple(columns)), rows, source)
    if statement.args.get("with_") is not None:
        kept.set("with_", statement.args["with_"].copy())
    return kept


def record(
    db: Database,
    name: str,
    command: str,
    done: Kept,
    written: Entry,
    beyond: tuple[str, Sequence[str]] = ("", ()),
) -> None:
    """After the write of model ``name`` that kept the version it replaces (``done.key``):
    the new version's row, from the catalog row as the write read it back (``written``), and
    the replaced version's row moved under its key, in one statement. Until then the version
    row stays under the name: the version a write interrupted before it replaced is still
    listed as current (``sql/versions/keeping.sql``). ``beyond``: the name's "dropped" key
    and where the versions the write drops beyond ``--keep`` are kept
    (:func:`sqlnb.versions.beyond`), whose version rows the same statement copies under that
    key, beside those dropped before (a statement fewer: their numbers are never given again,
    and :func:`sqlnb.versions.after_write` then empties their partitions)."""
    assert done.key is not None
    rows = templates.render(
        "versions/keeping.sql",
        model_name=name,
        version=done.number,
        command=command,
        documents=float(written.info.get("n_docs") or 0),
        words=int(written.info.get("n_features") or 0),
        kept=done.key,
    )
    assert isinstance(rows, exp.Query)
    gone, dropped = beyond
    if dropped:  # (the dropped key's own rows, read back: its partition is overwritten)
        copied = exp.select(*VERSIONS.columns, exp.convert(gone).as_("model"))
        wheres = exp.column("model").isin(*(exp.convert(k) for k in (gone, *dropped)))
        rows = exp.union(rows, copied.from_(VERSIONS.node()).where(wheres), distinct=False)
    db.execute(_overwriting(VERSIONS, rows))


def _overwriting(table: ModelTable, rows: exp.Query, node: exp.Table | None = None) -> exp.Insert:
    """INSERT OVERWRITE of the partitions of ``table`` that ``rows`` (its columns, then
    ``model``) name, each replaced by its rows (run in Spark's dynamic partition mode:
    sqlnb.engine.spark)."""
    target = (node or table.node()).copy()
    target.set("partition", exp.Partition(expressions=[exp.column("model")]))
    names = [*table.columns, "model"]
    return exp.Insert(
        this=exp.Schema(this=target, expressions=[exp.to_identifier(c) for c in names]),
        expression=exp.select(*(exp.column(c, "k") for c in names)).from_(rows.subquery("k")),
        overwrite=True,
    )
