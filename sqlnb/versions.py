"""Kept versions of a model, and rolling back to one (``sqlnb versions``, ``sqlnb rollback``).

Every write of a model (train over its name, append, retune, calibrate, import over its name)
keeps the version it replaces. The current version stays under the model's own name, so that
everything that reads a model (predict, evaluate, show, every engine's SQL functions) reads it
as before; an earlier version keeps every row it had (counts, derived tables, catalog row,
tokenizer, calibration) under :func:`key`, a name no model may have (it holds ``\\x1f``,
refused by :func:`sqlnb.catalog.check_name`). Keeping the derived rows too (not only the
counts) lets ``predict --version`` and ``export --version`` read a version without writing,
and makes a rollback a move of rows, with nothing derived again: the version answers exactly as
it did. ``sqlnb_versions`` numbers the versions of each name (never reusing a number) and says
where each is kept (the current one: under the name).

Rows move with the engines' own statements, INSERT ... SELECT under the new key and DELETE of
the old (Spark and ClickHouse cannot UPDATE a key column), inside the write's transaction
where the engine has transactions. Spark and ClickHouse have none: there a rollback first
copies the current version to its key, so that an interruption leaves both versions kept, and
running the rollback again completes it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlglot import exp

from sqlnb import catalog, events, keyrows, settings, templates
from sqlnb.catalog import VERSIONS, Entry
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.kinds import KINDS, ModelTable
from sqlnb.kinds.tfidf import DOC_COUNT, DOC_FREQ, TRANSFORM, Tfidf

MARK = catalog.INTERNAL  # in every internal key; no model name may hold it
KEEP: int = settings.KEEP.default  # versions kept, the current one included
COMMANDS = ("train", "append", "retune", "calibrate", "import")
ANEW = ("train", "import")  # the writes that read nothing of the model they replace


def key(name: str, version: int) -> str:
    """Where an earlier version of model ``name`` keeps its rows.

    >>> key("spam", 2)
    'spam\\x1fv2'
    """
    return f"{name}{MARK}v{version}"


def _gone(name: str) -> str:
    """The key of the row that remembers the highest dropped version number of ``name``."""
    return f"{name}{MARK}dropped"


@dataclass(frozen=True)
class Version:
    """One kept version of a model, as ``sqlnb versions`` prints it."""

    version: int
    created: str
    command: str
    documents: float
    words: int
    current: bool
    where: str  # the key its rows are kept under

    def as_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "created": self.created,
            "command": self.command,
            "documents": self.documents,
            "words": self.words,
            "current": self.current,
        }


def kept(db: Database, name: str) -> list[Version]:
    """The kept versions of model ``name``, oldest first (none before its first write that
    kept one: a model an earlier sqlnb trained has its version 1 on its next write)."""
    if db.relation_type(VERSIONS.node()) is None:
        return []
    return _kept(_rows(db, name), name)


def _rows(db: Database, name: str) -> list[dict[str, Any]]:
    """The version rows of model ``name`` (``sql/versions/kept.sql``)."""
    return db.fetch_dicts(templates.select("versions/kept.sql", model_name=name))


def _kept(rows: list[dict[str, Any]], name: str) -> list[Version]:
    """:func:`kept` of model ``name`` from its version ``rows``."""
    found: list[Version] = []
    for r in sorted(rows, key=lambda r: (int(r["version"]), str(r["model"]) != name)):
        n, where = int(r["version"]), str(r["model"])
        if where == name or (where == key(name, n) and not any(v.version == n for v in found)):
            documents, words = float(r["documents"] or 0), int(r["words"] or 0)
            found.append(Version(n, str(r["created"]), str(r["command"]), documents, words,
                where == name, where))  # fmt: skip
    return found


def listing(db: Database, name: str) -> list[Version]:
    """:func:`kept` of an existing model (an unknown name is the catalog's clear error); a
    model written before versions were kept shows its one version, not yet numbered (0)."""
    entry = catalog.entry(db, name)
    found = kept(db, name)
    if not any(v.current for v in found):
        info = entry.info
        documents, words = float(info.get("n_docs") or 0), int(info.get("n_features") or 0)
        found.append(Version(0, str(info.get("trained_at")), "train", documents, words, True,
            name))  # fmt: skip
    return found


def _kind_of(db: Database, where: str, *, calibration: bool = False) -> Entry | None:
    """The catalog entry of the rows kept under ``where`` (a name or a version's key); with
    ``calibration``, its info has the calibration's method too (:func:`catalog.row`)."""
    found = catalog.row(db, where, calibration=calibration)
    if found is None or found["kind"] not in KINDS:
        return None
    return Entry(where, found["kind"], {}, found["label_type"], found)


def _tables(db: Database, *wheres: str, kinds: Sequence[str] = ()) -> list[ModelTable]:
    """Every table (not view) the rows kept under ``wheres`` (or of ``kinds``, already read)
    may be in, the catalog first, the versions table last."""
    every = {t.name: t for t in catalog.SHARED}
    found_kinds = [e.kind_name for w in wheres if (e := _kind_of(db, w)) is not None]
    for name in (*kinds, *found_kinds):
        if name in KINDS:
            every.update({t.name: t for t in KINDS[name].tables})
    found = [t for t in every.values() if not t.view and db.relation_type(t.node()) == "table"]
    return [*found, VERSIONS]


def moving(
    db: Database,
    source: str,
    target: str,
    tables: Sequence[ModelTable],
    *,
    delete: bool = True,
    replace: bool = True,
    unkept: bool = False,
) -> list[exp.Expr]:
    """The statements that put the rows of ``source`` under ``target`` in ``tables`` (the
    catalog first): (``replace``) any left under ``target`` go first, then a copy, then
    (``delete``) the source's rows. Where the engine has no transactions, rows with a catalog
    row are whole. ``unkept``: a table's copy only where ``target`` holds none of its rows yet
    (a write interrupted before it recorded its version kept them: :mod:`sqlnb.keyrows`)."""
    statements = catalog.deletes(target, tables) if replace else []  # the catalog row first
    for table in [*tables[1:], tables[0]]:  # the catalog row last: a copy that has it is whole
        columns = [c for c in db.columns(table.node()) if c.lower() != "model"]
        rows = (
            exp.select(exp.convert(target).as_("model"), *(exp.column(c) for c in columns))
            .from_(table.node())
            .where(exp.column("model").eq(exp.convert(source)))
        )
        if unkept:  # only into a key that holds no row yet (sqlnb.keyrows)
            rows = rows.where(keyrows.unkept(table.node(), target), copy=False)
        statements.append(exp.insert(rows, table.node(), columns=["model", *columns]))
    return statements + (catalog.deletes(source, tables) if delete else [])


def _record(name: str, command: str, created: exp.Expr | None = None) -> exp.Expr:
    return templates.render(
        "versions/record.sql",
        model_name=name,
        command=command,
        created=created or exp.CurrentTimestamp(),
    )


def _run(db: Database, statements: Iterable[exp.Expr]) -> None:
    for statement in statements:
        db.execute(statement)


@dataclass(frozen=True)
class Kept:
    """What :func:`before_write` did and knows: whether the model's rows ``moved`` (the write
    has none left to delete), the versions that are not current once the write is done
    (``earlier``; None: not known, :func:`after_write` reads them), so that nothing is read
    again after the write, and the tables the replaced model has no rows in (``empty``: the
    write has none to delete there, nor were any moved)."""

    moved: bool = False
    earlier: list[Version] | None = None
    empty: frozenset[str] = frozenset()
    # where the write's own overwrites keep the replaced rows (sqlnb.keeping): the key, the
    # tables whose overwrite keeps them there, and the number the new version gets
    key: str | None = None
    folded: frozenset[str] = frozenset()
    number: int = 0
    # the method of the replaced model's calibration, where this read its row with it (the
    # write read nothing of it before: sqlnb.catalog.moves)
    calibration: str | None = None
    # the tables of ``folded`` read to keep no row under ``key`` (sqlnb.keyrows.held)
    clear: frozenset[str] = frozenset()


def empty(found: dict[str, Any]) -> frozenset[str]:
    """The tables the model of catalog row ``found`` has no rows in, as its hyperparameters
    say: the tokenizer's without a tokenizer, a document transform's without one (both are
    written from the hyperparameters: sqlnb/tokenizer.py, sqlnb/kinds/tfidf.py), and the
    calibration's where the row was read with its calibration's method and has none.

    >>> sorted(empty({"params": '{"alpha": 1.0}', catalog.METHOD: None}))[:3]
    ['sqlnb_calibration', 'sqlnb_doc_count', 'sqlnb_doc_freq']
    >>> sorted(empty({"params": '{"tokenizer": {"lowercase": true}, "idf": "smooth"}'}))
    []
    """
    try:
        params = json.loads(found["params"])
    except (TypeError, ValueError, KeyError):
        return frozenset()  # not read: every table may hold rows
    if not isinstance(params, dict):
        return frozenset()
    found_empty = [] if params.get("tokenizer") else [catalog.TOKENIZERS.name]
    if Tfidf.of(params) is None:
        found_empty += [DOC_FREQ.name, DOC_COUNT.name, TRANSFORM.name]
    if catalog.METHOD in found and found[catalog.METHOD] is None:
        found_empty.append(catalog.CALIBRATION.name)
    return frozenset(found_empty)


def before_write(
    db: Database,
    name: str,
    *,
    anew: bool = False,
    folds: frozenset[str] = frozenset(),
    replaced: dict[str, Any] | None = None,
) -> Kept:
    """Inside a write's transaction, before it replaces model ``name``: keep the current
    version under its key (a model written before versions were kept is numbered first).
    A write that reads nothing of the model it replaces (``anew``: train, import) lets the
    rows move to the key where the engine can in its transaction (UPDATE of the key: one
    statement per table, no copy, and nothing left for the write to delete); otherwise
    they are copied. Rows left under the key (by a write interrupted on an engine without
    transactions: they come with their version row) go first. The tables the model has no
    rows in (:func:`empty`, as its catalog row says, with its calibration's method where it
    was read with it) are neither moved nor copied: a retraining moved or copied five or
    more empty ones (a DuckDB one ran twelve UPDATEs, seven of tables with rows). Where
    the engine keeps replaced rows in an overwrite (``keeps_in_overwrite``), neither the
    tables ``folds`` (whose write overwrites the model's partition with rows: sqlnb.keeping)
    nor the version row are copied here: the write keeps them. ``replaced``: the model's
    catalog row as the command read it before its write (:func:`catalog.replaced`), taken
    where the engine has no transactions (nothing guards the time between two of its
    statements: reading it again changes nothing); in a transaction it is read here, with
    its calibration's method (the same statement), under the writers' lock where the engine
    has one (PostgreSQL: a write waits for another, then replaces it whole). Returns what it
    did."""
    taken = replaced is not None and db.dialect.begin is None  # ({}: no such model)
    within = db.dialect.begin is not None  # (a transaction: the row is read in it)
    found = (replaced or None) if taken else catalog.row(db, name, calibration=within)
    if found is None:  # a first write: without a versions table, no earlier version either
        return Kept(earlier=None if db.relation_type(VERSIONS.node()) else [])
    method = found.get(catalog.METHOD)
    if db.relation_type(VERSIONS.node()) is None:  # (probes are listed once a command)
        _run(db, [templates.render(VERSIONS.create)])
    rows = _rows(db, name)
    current = [v for v in _kept(rows, name) if v.current]
    if not current:  # a model an earlier sqlnb wrote (or whose row was lost): version it
        _run(db, [_record(name, "train", exp.column("trained_at", "m"))])
        rows = _rows(db, name)
        current = [v for v in _kept(rows, name) if v.current]
    target, tables = key(name, current[0].version), _tables(db, kinds=[str(found["kind"])])
    left = any(str(r["model"]) == target for r in rows)  # rows under the key: none, normally
    kept_as = dataclasses.replace(current[0], current=False, where=target)
    earlier = [*(v for v in _kept(rows, name) if not v.current), kept_as]
    earlier.sort(key=lambda v: v.version)
    none = empty(found)
    holding = [t for t in tables if t.name not in none]
    if anew and catalog.moves(db):  # (UPDATE in this transaction)
        cleared = catalog.deletes(target, tables) if left else []
        _run(db, [*cleared, *_renaming(name, target, holding)])
        return Kept(True, earlier, none, calibration=None if method is None else str(method))
    _run(db, catalog.deletes(target, tables) if left else [])  # the catalog row first
    if db.backend.keeps_in_overwrite:  # the write's overwrites keep the rows they replace
        folded = frozenset(t.name for t in holding if t.name in folds)
        copied = [t for t in holding if t.name not in folded and t is not VERSIONS]
        if copied:  # (a text model's: none, where the training read that it learns a word)
            _run(db, moving(db, name, target, copied, delete=False, replace=False, unkept=True))
        number = max(int(r["version"]) for r in rows) + 1  # (rows: dropped ones too)
        nodes = [t.node() for t in holding if t.name in folded]
        clear = folded if left else folded - keyrows.held(db, target, nodes)  # (left: emptied)
        return Kept(False, earlier, none, target, folded, number, clear=clear)
    _run(db, moving(db, name, target, holding, delete=False, replace=False))
    _run(db, catalog.deletes(name, [VERSIONS]))
    return Kept(False, earlier, none)


def _renaming(source: str, target: str, tables: Sequence[ModelTable]) -> list[exp.Expr]:
    """UPDATE ... SET model = ``target`` of ``source``'s rows in each of ``tables``."""
    where = exp.column("model").eq(exp.convert(source))
    return [exp.update(t.node(), {"model": exp.convert(target)}, where=where) for t in tables]


def after_write(
    db: Database,
    name: str,
    command: str,
    keep: int = KEEP,
    done: Kept | None = None,
    *,
    recorded: bool = False,
) -> None:
    """Inside a write's transaction, after it wrote model ``name``: record the new current
    version (unless it is ``recorded``: sqlnb.keeping.record) and drop the oldest kept ones
    beyond ``keep`` (the current one included). The versions not current: as
    :func:`before_write` knew them (``done.earlier``), else read here."""
    check_keep(keep)
    earlier = done.earlier if done is not None else None
    if not recorded:
        known = bool(earlier)  # then before_write found the versions table (else: made here)
        _run(db, [*([] if known else [templates.render(VERSIONS.create)]), _record(name, command)])
    copied = recorded and done is not None and done.earlier is not None  # (keeping.record)
    if earlier is None:
        earlier = [v for v in kept(db, name) if not v.current]
    for old in _beyond(earlier, keep):
        _run(db, _dropping(db, name, old, copied=copied))


def _beyond(earlier: list[Version], keep: int) -> list[Version]:
    """The oldest of the ``earlier`` versions (not current) beyond ``keep`` in all."""
    return earlier[: max(len(earlier) + 1 - keep, 0)]


def beyond(done: Kept, name: str, keep: int) -> tuple[str, list[str]]:
    """The key of model ``name``'s dropped version rows, and where the versions its write
    (``done``: :func:`before_write`) drops beyond ``keep`` are kept (none where not known)."""
    return _gone(name), [v.where for v in _beyond(done.earlier or [], keep)]


def check_keep(keep: int) -> None:
    settings.KEEP.check(keep)


def _dropping(db: Database, name: str, version: Version, *, copied: bool = False) -> list[exp.Expr]:
    """Delete a kept, not current version's rows; its version row moves under the name's
    "dropped" key, beside those of the versions dropped before it (a row each: after a
    rollback the highest number is not always the last dropped), so that its number is never
    given again (``copied``: the write's version rows copied it, sqlnb.keeping.record). Every
    DELETE is of whole keys (on Spark, a partition each), not of the tables the version has no
    rows in (:func:`empty`; its calibration's method read with its catalog row in a
    transaction)."""
    found = _kind_of(db, version.where, calibration=db.dialect.begin is not None)
    none = empty(found.info) if found is not None else frozenset()
    kinds = [found.kind_name] if found is not None else []
    tables = [t for t in _tables(db, kinds=kinds) if t.name not in none]
    statements = catalog.deletes(version.where, tables[:-1])
    moved = moving(db, version.where, _gone(name), [VERSIONS], replace=False)
    if db.dialect.partition_by_model:  # (Spark) its row copied, then its partitions emptied
        copy = [] if copied else moved[:-1]
        return [*copy, *keyrows.emptying([*statements, moved[-1]], db.dialect)]
    return statements + moved


def _chosen(db: Database, name: str, version: int) -> Version:
    """Kept version ``version`` of model ``name``, or a one-line refusal naming those kept."""
    versions = listing(db, name)
    for v in versions:
        if v.version == version and v.version > 0:
            return v
    numbers = ", ".join(str(v.version) for v in versions if v.version > 0) or "none"
    raise SqlnbError(f"model {name!r} keeps no version {version} (kept: {numbers})")


def reading(db: Database, name: str, version: int | None) -> str:
    """The name to load to read version ``version`` of model ``name`` (None: the current)."""
    if version is None:
        return name
    return _chosen(db, name, version).where


def drop_version(db: Database, name: str, version: int) -> None:
    """Remove one kept version of model ``name`` that is not the current one."""
    db.trusted(writing=True)
    chosen = _chosen(db, name, version)
    if chosen.current:
        raise SqlnbError(
            f"version {version} is model {name!r}'s current one: roll back first, or drop the model"
        )
    with db.transaction():
        _run(db, _dropping(db, name, chosen))


def drop_all(db: Database, name: str) -> None:
    """Inside a drop's transaction, after the model's own rows went: every kept version's
    rows and the version rows of ``name``."""
    if db.relation_type(VERSIONS.node()) is None:
        return
    rows = _rows(db, name)
    for v in _kept(rows, name):
        if not v.current:
            _run(db, catalog.deletes(v.where, _tables(db, v.where)[:-1]))
    for where in sorted({str(r["model"]) for r in rows}):  # whole keys: a partition each on Spark
        _run(db, catalog.deletes(where, [VERSIONS]))


def rollback(db: Database, name: str, to: int | None = None) -> tuple[int, int]:
    """Make kept version ``to`` (default: the newest before the current one) model ``name``'s
    current version again, in one transaction; returns (from, to). No new version is made."""
    db.trusted(writing=True)
    db.backend.check_writable()
    if catalog.row(db, name) is None and kept(db, name):
        return _repair(db, name, to)
    versions = listing(db, name)
    current = next(v for v in versions if v.current)
    if to is None:
        earlier = [v for v in versions if v.version < current.version and not v.current]
        if not earlier:
            raise SqlnbError(
                f"model {name!r} has no version before {current.version} to roll back to"
            )
        target = earlier[-1]
    else:
        target = _chosen(db, name, to)
        if target.current:
            raise SqlnbError(f"version {to} is model {name!r}'s current one already")
    with db.transaction():
        tables = _tables(db, name, target.where)
        _run(db, moving(db, name, key(name, current.version), tables))
        _run(db, moving(db, target.where, name, tables))
        events.announce(events.MODEL_WRITTEN, db, name)
    return current.version, target.version


def _repair(db: Database, name: str, to: int | None) -> tuple[int, int]:
    """Finish a rollback that was interrupted where the engine has no transactions (Spark,
    ClickHouse): model ``name`` has no whole current version, its kept ones are whole; the
    rows left under the name go and kept version ``to`` becomes current."""
    whole = [v for v in kept(db, name) if not v.current and catalog.row(db, v.where)]
    numbers = ", ".join(str(v.version) for v in whole) or "none"
    chosen = [v for v in whole if v.version == to]
    if not chosen:
        raise SqlnbError(
            f"model {name!r} has no current version (a rollback was interrupted): give --to "
            f"one of the kept versions ({numbers})"
        )
    every = {t.name: t for k in KINDS.values() for t in k.tables}
    every.update({t.name: t for t in catalog.SHARED})
    left = [t for t in every.values() if not t.view and db.relation_type(t.node()) == "table"]
    tables = _tables(db, chosen[0].where)
    with db.transaction():
        _run(db, catalog.deletes(name, [catalog.MODELS, *left, VERSIONS]))
        _run(db, moving(db, chosen[0].where, name, tables))
        events.announce(events.MODEL_WRITTEN, db, name)
    return 0, chosen[0].version
