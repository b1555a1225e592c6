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
move last, in one statement with the new version's row (:func:`record`; a training's, as the
write's last overwrite: :func:`recorded`). Until then the version's number is not taken, so a
write interrupted before it is completed by the next one (:mod:`sqlnb.keyrows`). Where the
engine has a multi-insert, consecutive overwrites run as one statement (:func:`folded`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from sqlglot import exp

from sqlnb import keyrows, templates
from sqlnb.catalog import CLASSES, MODELS, PRIOR, TOKENIZERS, VERSIONS, Entry
from sqlnb.kinds import ModelTable
from sqlnb.kinds.text import BASE, SCORING, WORD_COUNTS

if TYPE_CHECKING:  # (the writes import this module: it stays below them)
    from sqlnb.engine import Database
    from sqlnb.training import Training
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
    key = done.key
    return [keeping(s, name, key) if overwritten(s, name) in done.folded else s for s in statements]


def keeping(statement: exp.Expr, name: str, key: str) -> exp.Expr:
    """An overwrite of model ``name``'s partition of a table (:func:`overwritten`) as one that
    also keeps the rows it replaces, under ``key``: both keys' partitions written by one job.

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
    rows = exp.union(written, keyrows.replaced(source, columns, name, key), distinct=False)
    kept = _overwriting(ModelTable(table.name, tuple(columns)), rows, source)
    if statement.args.get("with") is not None:
        kept.set("with", statement.args["with"].copy())
    return kept


def record(db: Database, name: str, command: str, done: Kept, written: Entry) -> None:
    """After the write of model ``name`` that kept the version it replaces (``done.key``):
    the new version's row, from the catalog row as the write read it back (``written``), and
    the replaced version's row moved under its key, in one statement. Until then the version
    row stays under the name: the version a write interrupted before it replaced is still
    listed as current (``sql/versions/keeping.sql``)."""
    documents, words = written.info.get("n_docs") or 0, written.info.get("n_features") or 0
    db.execute(_overwriting(VERSIONS, _rows(name, command, done, float(documents), int(words))))


def recorded(
    statements: Sequence[exp.Expr], written: Training, done: Kept, beyond: tuple[str, list[str]]
) -> tuple[list[exp.Expr], Kept]:
    """The ``statements`` of a write (``written``) that keeps the version it replaces in its
    overwrites (:func:`rewritten`; ``done``: :func:`sqlnb.versions.before_write`), followed by
    :func:`record`'s statement, its documents and words as the catalog row's (record.sql) from
    the tables written before it, and ``beyond``'s (a key, the keys of the versions dropped
    beyond ``--keep``) version rows copied under the key in it. Where the engine has a
    multi-insert, the overwrites folded (:func:`folded`). Returns them, and ``done`` as
    recorded (:func:`sqlnb.training.finish` records nothing more)."""
    statements = rewritten(statements, written.model, done)
    if done.key is None:
        return statements, done
    name, model = written.model, exp.column("model").eq(exp.convert(written.model))
    documents = exp.select(exp.Sum(this=exp.column("n_docs"))).from_(CLASSES.node()).where(model)
    words = written.kind.n_features(name, written.params)
    rows = _rows(name, str(written.command), done, *(_or_0(q) for q in (documents, words)))
    gone, dropped = beyond
    if dropped:  # their version rows beside the earlier dropped ones: numbers never given again
        copied = exp.select(*VERSIONS.columns, exp.convert(gone).as_("model"))
        wheres = exp.column("model").isin(*(exp.convert(k) for k in (gone, *dropped)))
        rows = exp.union(rows, copied.from_(VERSIONS.node()).where(wheres), distinct=False)
    statements = [*statements, _overwriting(VERSIONS, rows)]
    fold = written.db.backend.multi_insert
    return (folded(statements) if fold else statements), dataclasses.replace(done, recorded=True)


def _or_0(value: exp.Expr) -> exp.Expr:
    """``value`` (a query: its one value), or 0 where it is NULL (as :func:`record` reads it)."""
    node = value.subquery() if isinstance(value, exp.Query) else value
    return exp.Coalesce(this=node, expressions=[exp.convert(0)])


def _rows(
    name: str, command: str, done: Kept, documents: exp.Expr | float, words: exp.Expr | int
) -> exp.Query:
    """The version rows :func:`record` writes, with these ``documents`` and ``words``."""
    assert done.key is not None
    rows = templates.render(
        "versions/keeping.sql",
        model_name=name,
        version=done.number,
        command=command,
        documents=documents,
        words=words,
        kept=done.key,
    )
    assert isinstance(rows, exp.Query)
    return rows


def folded(statements: Sequence[exp.Expr]) -> list[exp.Expr]:
    """``statements`` with each run of keeping overwrites (:func:`_overwriting`'s: both keys'
    partitions) in a row as one multi-insert (Spark's ``FROM s INSERT OVERWRITE a ...
    INSERT OVERWRITE b ...``): one round trip and one plan, and the inserts run in their
    order, so an interruption leaves what the statements one by one would. A run ends before
    an overwrite that reads a table the run writes (the statement's tables are listed when it
    is planned, before any insert runs). The inserts' one source is their rows side by side:
    a column per column of each (``s<i>_<j>``, NULL in the others' rows) and ``sqlnb_into``,
    the insert's number, by which each insert takes its rows (Spark reads a branch of the
    union only in the insert that takes it: its filter is false in the others). A
    multi-insert's inserts cannot read a table of their own (one ``FROM`` feeds them all).

    >>> from sqlnb.engine import dialects
    >>> one = _overwriting(PRIOR, exp.select("1 AS class_id", "'a' AS label", "0.0 AS log_prior",
    ...     "'m' AS model"))
    >>> two = _overwriting(CLASSES, exp.select("1 AS class_id", "'a' AS label", "1.0 AS n_docs",
    ...     "'m' AS model"))
    >>> [type(s).__name__ for s in folded([one, two, one])]
    ['MultitableInserts', 'Insert']
    >>> text = " ".join(dialects.script(folded([one, two]), "spark").split())
    >>> text.count("INSERT OVERWRITE TABLE"), text.count("WHERE sqlnb_into")
    (2, 2)
    """
    done: list[exp.Expr] = []
    run: list[exp.Insert] = []
    for statement in [*statements, None]:
        table, targets = _keeping(statement), {_keeping(r) for r in run}
        query = statement.expression if isinstance(statement, exp.Insert) else None
        reads = {t.name for t in query.find_all(exp.Table)} if query else set()
        if run and (table is None or table in targets or reads & targets):
            done.append(run[0] if len(run) == 1 else _multi(run))
            run = []
        if statement is not None and table is None:
            done.append(statement)
        elif statement is not None:
            assert isinstance(statement, exp.Insert)
            run.append(statement)
    return done


def _keeping(statement: exp.Expr | None) -> str | None:
    """The table a keeping overwrite writes (:func:`_overwriting`; its ``WITH``, if any, in its
    query), or None."""
    if not isinstance(statement, exp.Insert) or statement.args.get("with_") is not None:
        return None
    schema = statement.this
    table = schema.this if isinstance(schema, exp.Schema) else None
    if not statement.args.get("overwrite") or not isinstance(table, exp.Table):
        return None
    partition = table.args.get("partition")
    if partition is None or partition.expressions != [exp.column("model")]:
        return None
    return str(table.name)


def _multi(run: Sequence[exp.Insert]) -> exp.Expr:
    """The keeping overwrites ``run`` as one multi-insert (:func:`folded`)."""
    names = [[c.name for c in s.this.expressions] for s in run]
    wide = [f"s{i}_{j}" for i, columns in enumerate(names) for j in range(len(columns))]
    source: exp.Query | None = None
    inserts = []
    for i, statement in enumerate(run):
        mine = {f"s{i}_{j}": c for j, c in enumerate(names[i])}
        rows = exp.select(
            exp.convert(i).as_("sqlnb_into"),
            *((exp.column(mine[w], "r") if w in mine else exp.null()).as_(w) for w in wide),
        ).from_(statement.expression.subquery("r"))
        source = rows if source is None else exp.union(source, rows, distinct=False)
        taken = exp.select(*(exp.column(w).as_(c) for w, c in zip(mine, names[i])))
        insert = statement.copy()
        insert.set("expression", taken.where(exp.column("sqlnb_into").eq(exp.convert(i))))
        inserts.append(insert)
    assert source is not None
    return exp.MultitableInserts(expressions=inserts, source=source.subquery("s"))


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
