"""The catalog of models in a database and the tables they share.

Every model keeps its rows, under its name in column ``model``, in the catalog
(``sqlnb_models``: kind, hyperparameters, label type, sizes), the shared ``sqlnb_classes`` and
``sqlnb_prior``, and its kind's own tables. This module reads the catalog (one model, all of
them) and writes the statements that create those tables, delete a model's rows, replace a
model and record it, shared by training, appending, retuning, importing and dropping.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlglot import exp

from sqlnb import templates
from sqlnb.engine import Database, dialects
from sqlnb.errors import SqlnbError
from sqlnb.kinds import KINDS, Kind, ModelTable, kind
from sqlnb.version import __version__

MODELS = ModelTable(
    "sqlnb_models",
    ("kind", "params", "label_type", "n_docs", "n_classes", "n_features", "trained_at", "version"),
    counts=True,
)
CLASSES = ModelTable(
    "sqlnb_classes",
    ("class_id", "label", "n_docs"),
    counts=True,
    keys=(("class_id",), ("label",)),
    amounts=("n_docs",),
)
PRIOR = ModelTable("sqlnb_prior", ("class_id", "label", "log_prior"))
TOKENIZERS = ModelTable(
    "sqlnb_tokenizers", ("settings", "lowercase", "pattern", "ngram_min", "ngram_max")
)
# How each calibration method is applied, declared once (sql/calibrate/steps.sql): the joint
# log-likelihood divided by a scale before the posterior, or the posterior mapped one-vs-rest.
SCALE, MAP = "scale", "map"
METHODS = {"temperature": SCALE, "sigmoid": MAP, "isotonic": MAP}
# Fitted by ``sqlnb calibrate`` on held-out documents (see sqlnb/calibration.py): carried by
# model files, dropped when the model changes.
CALIBRATION = ModelTable(
    "sqlnb_calibration",
    ("method", "class_id", "lo", "hi", "a", "b"),
    counts=True,
    keys=(("class_id", "lo"),),
    finite=("lo", "hi", "a", "b"),
    choices=(("method", tuple(METHODS)),),
    optional=True,
)
SHARED = (MODELS, CLASSES, PRIOR, TOKENIZERS, CALIBRATION)
# The kept versions of every model (sqlnb/versions.py): not a model's own rows, so not SHARED.
VERSIONS = ModelTable(
    "sqlnb_versions", ("name", "version", "created", "command", "documents", "words")
)
# The column of the calibration's method that a command's read of a catalog row may add
# (:func:`row`): a model's Entry.info carries it from the load to the prediction.
METHOD = "calibration"
# The column of whether a query has a row, that a write's read of the row it replaces may add
# (:func:`replaced`: a Spark training's "has a word" read, sqlnb.kinds.text.has_word).
FOUND = "sqlnb_found"
RECORD = "sqlnb_record"  # the meta key of the statement that inserts a catalog row (its model)
INTERNAL = "\x1f"  # in every key sqlnb keeps rows under that is not a model's name


@dataclass(frozen=True)
class Entry:
    """A model as the catalog records it."""

    name: str
    kind_name: str
    params: dict[str, Any]
    label_type: str
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> Kind:
        return kind(self.kind_name)

    @property
    def n_classes(self) -> int:
        return int(self.info.get("n_classes") or 0)


def tables(the_kind: Kind) -> tuple[ModelTable, ...]:
    """Every table a model of ``the_kind`` has rows in: the shared ones, then the kind's."""
    return (*SHARED, *the_kind.tables)


def counts(the_kind: Kind) -> tuple[ModelTable, ...]:
    """The tables that hold a model's counts (what a model file carries), catalog first."""
    return tuple(t for t in tables(the_kind) if t.counts)


def derived(the_kind: Kind) -> tuple[ModelTable, ...]:
    """The tables (and views) derived from the counts: what a retuning rewrites."""
    return tuple(t for t in tables(the_kind) if not t.counts)


def creates(db: Database, *kinds: Kind, script: bool = False) -> list[exp.Expr]:
    """CREATE TABLE (or VIEW) IF NOT EXISTS for the shared tables and the kinds', each asked
    for once, but those the database has already (asking is cheaper than creating on some
    engines: Spark's catalog), or all of them in a ``script`` (printed, to run on another
    database). A readable table that is now a view, as an earlier sqlnb left it, is dropped
    first (its rows are derived, and the view shows them again for every model). Where the
    engine wants them, the indexes the SQL functions look words up by (also on tables an
    earlier sqlnb made)."""
    if not script:
        db.trusted(writing=True)
    statements: list[exp.Expr] = []
    every = {t.name: t for the_kind in kinds for t in tables(the_kind)}  # in order, once each
    for t in every.values():
        found = db.relation_type(t.node())
        if found == "table" and not t.view:
            check_shape(db, t)
        if t.view and found == "table":
            statements.append(templates.render("catalog/drop_table.sql", table=t.node()))
        if found is None or script or (t.view and found == "table"):
            statements.append(templates.render(t.create))
        if t.lookup and db.dialect.lookup and not script:  # for the SQL functions
            index = dialects.index(t.node(), "lookup", t.lookup, hashed=db.dialect.lookup == "hash")
            if found is None or db.relation_type(exp.to_table(index.this.name)) is None:
                statements.append(index)  # (asked first: an index is a relation too)
    return statements


def check_shape(db: Database, table: ModelTable) -> None:
    """Refuse, in one line, a table of one of sqlnb's names that lacks the columns sqlnb keeps
    in it (a user's own table, say): sqlnb neither writes to it nor reads it as a model."""
    found = {c.lower() for c in db.columns(table.node())}
    missing = [c for c in ("model", *table.columns) if c.lower() not in found]
    if missing:
        raise SqlnbError(
            f"table {table.name!r} is not one of sqlnb's: it has no column "
            f"{', '.join(missing)}; rename it (sqlnb keeps its models in tables of that name)"
        )


def deletes(model: str, which: Iterable[ModelTable]) -> list[exp.Expr]:
    """Delete ``model``'s rows from each of the tables ``which`` (views hold none). Each
    statement carries its table's other columns (``meta["columns"]``): where tables are
    partitioned by model it becomes an overwrite of the model's partition with no rows."""
    statements = []
    for t in which:
        if not t.view:
            statement = templates.render("catalog/delete.sql", table=t.node(), model=model)
            statement.meta["columns"] = t.columns
            statements.append(statement)
    return statements


def deleting(statement: exp.Expr, model: str) -> bool:
    """Whether ``statement`` is one of :func:`deletes`' for ``model``."""
    where = statement.args.get("where") if isinstance(statement, exp.Delete) else None
    return where is not None and where.this == exp.column("model").eq(exp.convert(model))


def replacing(
    db: Database,
    model: str,
    the_kind: Kind,
    *,
    script: bool = False,
    found: dict[str, Any] | None = None,
) -> list[exp.Expr]:
    """The statements before writing model ``model`` of ``the_kind`` anew: create the tables
    (all of them in a ``script``, see :func:`creates`), then delete the rows of the model it
    replaces, whatever its kind (not from a table created here, empty: none in a new file),
    as the command read it (``found``: :func:`replaced`; None: read here)."""
    if not script:
        db.trusted(writing=True)  # before reading the model it replaces
    stale = {t.name: t for t in (*SHARED[1:], *the_kind.tables)}
    previous = row(db, model) if found is None else found
    if previous and previous["kind"] in KINDS:
        stale.update({t.name: t for t in KINDS[previous["kind"]].tables})
    made = creates(db, the_kind, script=script)
    new = set() if script else {_created(s) for s in made}
    ordered = [t for t in (MODELS, *(stale[n] for n in sorted(stale))) if t.name not in new]
    return [*made, *deletes(model, ordered)]


def _created(statement: exp.Expr) -> str | None:
    """The table or view a CREATE TABLE or VIEW statement makes (None: another statement)."""
    if not isinstance(statement, exp.Create) or statement.kind not in ("TABLE", "VIEW"):
        return None
    found = statement.find(exp.Table)
    return None if found is None else found.name


def overwrites(statements: Sequence[exp.Expr], model: str, d: dialects.Dialect) -> list[exp.Expr]:
    """A training's ``statements``, all of whose INSERTs write rows of ``model`` only, as
    dialect ``d`` runs them best: where tables are partitioned by model (Spark's), a DELETE
    of the model's rows from a table and the next INSERT into it become one INSERT
    OVERWRITE of the model's partition (Spark's ``ALTER TABLE ... DROP PARTITION`` took about
    a second each, eleven of them in a retraining, and ran no job).

    >>> spark = dialects.dialect("spark")
    >>> done = overwrites([deletes("m", [CLASSES])[0], templates.render(
    ...     "train/classes.sql", model="m", labeled=exp.to_table("l"))], "m", spark)
    >>> print(" ".join(dialects.script(done, "spark").split())[:77])
    INSERT OVERWRITE TABLE sqlnb_classes PARTITION(model = 'm') ( class_id, label
    """
    if not d.partition_by_model:
        return list(statements)
    pending: dict[str, int] = {}  # a table's DELETE of the model's rows not yet folded
    done: list[exp.Expr | None] = list(statements)
    for i, statement in enumerate(statements):
        if isinstance(statement, exp.Delete) and statement.this.name.startswith("sqlnb_"):
            where = statement.args.get("where")
            if where is not None and where.this == exp.column("model").eq(exp.convert(model)):
                pending[statement.this.name] = i
            continue
        if not isinstance(statement, exp.Insert) or not isinstance(statement.this, exp.Schema):
            continue
        table = statement.this.this
        columns = [c.name for c in statement.this.expressions]
        query = statement.expression
        if table.name not in pending or "model" not in columns or not isinstance(query, exp.Query):
            continue
        kept = [c for c in columns if c != "model"]
        rows = exp.select(*(exp.column(c, "o") for c in kept)).from_(query.subquery("o"))
        target = table.copy()
        target.set("partition", exp.Partition(expressions=[exp.column("model").eq(model)]))
        overwrite = exp.Insert(
            this=exp.Schema(this=target, expressions=[exp.to_identifier(c) for c in kept]),
            expression=rows,
            overwrite=True,
        )
        if statement.args.get("with_") is not None:
            overwrite.set("with_", statement.args["with_"].copy())
        done[i] = overwrite
        done[pending.pop(table.name)] = None
    return [s for s in done if s is not None]


def record(model: str, the_kind: Kind, params: dict[str, Any], label_type: str) -> exp.Expr:
    """Insert the catalog row of a model whose classes and derived tables are written."""
    statement = templates.render(
        "catalog/record.sql",
        model=model,
        kind=the_kind.name,
        params=json.dumps(params),
        label_type=label_type,
        n_features=the_kind.n_features(model, params),
        version=__version__,
    )
    statement.meta[RECORD] = model
    return statement


def hint(db: Database, name: str) -> str:
    """The closest model names, or the few there are, for an unknown name."""
    names = sorted(r["model"] for r in entries(db))
    close = difflib.get_close_matches(name, names, n=1)
    if close:
        return f": did you mean {close[0]!r}?"
    if not names:
        return " (it has none yet)"
    return f" (models: {', '.join(names[:10])}{', ...' if len(names) > 10 else ''})"


def row(
    db: Database, name: str, *, calibration: bool = False, found: exp.Select | None = None
) -> dict[str, Any] | None:
    """The catalog row of model ``name``, if there is one; with ``calibration``, also the
    method of its calibration (column ``calibration``, None: uncalibrated) in the same read;
    with ``found`` (a query of one row or none), that row's first value (column
    :data:`FOUND`, None: no row)."""
    if db.relation_type(MODELS.node()) is None:  # exists() would abort a transaction
        return None
    query = templates.select("catalog/models.sql").where(_named("m", name), copy=False)
    if calibration:
        method = _method(db, name)
        query = query.select((method.subquery() if method else exp.null()).as_(METHOD), copy=False)
    if found is not None:
        query = query.select(found.subquery().as_(FOUND), copy=False)
    rows = db.fetch_dicts(query)
    return rows[0] if rows else None


def replaced(
    db: Database, name: str, *, script: bool = False, found: exp.Select | None = None
) -> dict[str, Any] | None:
    """Model ``name``'s catalog row with its calibration's method (``{}``: no such model),
    read once by a write that replaces it and passed to its steps (sqlnb's tables trusted
    first, unless the write is a ``script`` for another database); with ``found``, whether
    that query has a row, in the same read (:func:`has_row`). None, unread, where the
    write reads it in its own transaction and moves its rows there (:func:`moves`)."""
    if not script:
        db.trusted(writing=True)
        if found is None and moves(db):
            return None
    return row(db, name, calibration=True, found=found) or {}


def moves(db: Database) -> bool:
    """Whether a write that reads nothing of the model it replaces (train, import) moves
    the replaced rows to their version's key by UPDATE in its transaction, after it read
    the model's catalog row there (sqlnb.versions.before_write): its deletes are then
    dropped, and a read of the row before the transaction tells the write nothing."""
    return db.dialect.begin is not None and db.dialect.update


def has_row(db: Database, query: exp.Select | None, replaced: dict[str, Any] | None) -> bool:
    """Whether ``query`` (a query of one row or none; None: nothing to ask) has a row: as
    read with the row of the model a write replaces (:func:`replaced`), or read now (a first
    training: no such row to read it with)."""
    if query is None:
        return True
    if replaced and FOUND in replaced:
        return replaced[FOUND] is not None
    return bool(db.fetch(query))


def _named(alias: str, name: str) -> exp.Expr:
    """The condition that reads one model's rows of a catalog query (not every model's)."""
    return exp.column("model", alias).eq(exp.convert(name))


def check_name(name: object) -> str:
    """A model name to write: text, not empty, not only spaces.

    >>> check_name("")
    Traceback (most recent call last):
    sqlnb.errors.SqlnbError: the model name is empty: give --model NAME
    """
    if not isinstance(name, str) or not name.strip():
        what = "empty" if isinstance(name, str) else f"not text ({name!r})"
        raise SqlnbError(f"the model name is {what}: give --model NAME")
    if INTERNAL in name and name != INTERNAL + "tune":  # (tune's scratch model, never kept)
        raise SqlnbError(
            f"the model name {name!r} holds the character \\x1f, which sqlnb keeps for its "
            "own keys (earlier versions): choose another name"
        )
    return name


def listed(db: Database, query: exp.Select, alias: str | None = None) -> exp.Select:
    """``query`` over ``sqlnb_models`` (as ``alias``) without the rows of models' earlier
    versions (kept under keys that are no model's name, see sqlnb/versions.py)."""
    if db.relation_type(VERSIONS.node()) is None:
        return query
    keys = (
        exp.select("model")
        .from_(VERSIONS.node())
        .where(exp.column("model").neq(exp.column("name")))
    )
    return query.where(exp.column("model", alias).isin(query=keys).not_())


def entry(db: Database, name: str) -> Entry:
    """Model ``name`` as the catalog records it, with its calibration's method (``info`` of
    :data:`METHOD`: a prediction of the entry applies the calibration it was loaded with);
    an unknown name is a clear error."""
    db.trusted()
    for table in (MODELS, CLASSES):  # what every command reads (a kind's own: see creates)
        if db.relation_type(table.node()) == "table":
            check_shape(db, table)
    found = row(db, name, calibration=True)  # (its calibration too: what a prediction reads)
    if found is None:
        raise SqlnbError(f"no model named {name!r} in this database{hint(db, name)}")
    return Entry(name, found["kind"], json.loads(found["params"]), found["label_type"], found)


def entries(db: Database) -> list[dict[str, Any]]:
    """Every model in the database, with its hyperparameters and classes."""
    if db.relation_type(MODELS.node()) is None:
        return []
    db.trusted()
    for table in (MODELS, CLASSES):
        check_shape(db, table)
    labels: dict[str, list[str]] = {}
    for r in db.fetch_dicts(templates.parsed("catalog/classes.sql")):
        labels.setdefault(r["model"], []).append(r["label"])
    rows = db.fetch_dicts(listed(db, templates.select("catalog/models.sql"), "m"))
    for r in rows:
        r["params"] = json.loads(r["params"])
        r["classes"] = labels.get(r["model"], [])
    return rows


def classes(db: Database, name: str) -> list[dict[str, Any]]:
    """A model's classes: class_id, label, documents and log prior, in class order."""
    return db.fetch_dicts(templates.select("catalog/classes.sql").where(_named("c", name)))


def calibration(db: Database, name: str, known: Entry | None = None) -> str | None:
    """The method of model ``name``'s calibration, or None (uncalibrated): as its ``known``
    entry was read with it (:func:`entry`), else read."""
    if known is not None and METHOD in known.info:
        method = known.info[METHOD]
        return None if method is None else str(method)
    query = _method(db, name)
    found = db.fetch(query) if query is not None else None
    return str(found[0][0]) if found and found[0][0] is not None else None


def calibrated(db: Database, name: str, method: str | None) -> exp.Expr:
    """The condition that model ``name``'s calibration is still ``method`` (a prediction that
    applies it reads its rows; TRUE for None: one that applies none reads none)."""
    query = _method(db, name) if method is not None else None
    return exp.true() if query is None else query.subquery().eq(exp.convert(method))


def _method(db: Database, name: str) -> exp.Select | None:
    """The query of model ``name``'s calibration method (None: no calibration table)."""
    if db.relation_type(CALIBRATION.node()) is None:
        return None
    return templates.select("catalog/calibration.sql", model=name)


def steps() -> exp.Select:
    """Every model's calibration rows as the scoring forms apply them: each row's ``scale``
    (or NULL) and whether it is a piece of a ``mapped`` posterior (``sql/calibrate/steps.sql``)."""
    (scaled,) = (m for m, step in METHODS.items() if step == SCALE)
    return templates.select("calibrate/steps.sql", scaled=exp.convert(scaled))


def drop(the_entry: Entry) -> list[exp.Expr]:
    """The statements that delete every row of a model."""
    return deletes(the_entry.name, tables(the_entry.kind))


def is_current(db: Database, the_entry: Entry) -> bool:
    """Whether the model is still the one loaded (not retrained or dropped since, nor its
    calibration changed where it was loaded with it: a prediction applies that one)."""
    known = METHOD in the_entry.info
    found = row(db, the_entry.name, calibration=known)
    keys: Sequence[str] = ("kind", "params", "trained_at", *([METHOD] if known else []))
    return found is not None and all(found[k] == the_entry.info.get(k) for k in keys)
