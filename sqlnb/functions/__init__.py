"""SQL functions in the database, so that any client can classify without sqlnb:

    SELECT id, sqlnb_classify('spam', body), sqlnb_proba('spam', body) FROM emails;
    SELECT * FROM sqlnb_predict('spam', 'new_tokens');

Their form is the engine's: the class its dialect names (``Dialect.functions``,
:mod:`sqlnb.functions.forms`), each built from the kinds' scoring form. DuckDB's macros score a
text with list functions over the model's lookup row (:mod:`sqlnb.functions.lists`), ClickHouse
the same tree over its dictionaries (:mod:`sqlnb.functions.clickhouse`); PostgreSQL's PL/pgSQL
functions branch by model, each branch the pipeline ``predict`` runs for it, SQLite's Python
functions run that pipeline too (:mod:`sqlnb.functions.sqlite`), and Spark's SQL functions run
the pipeline of any model (:mod:`sqlnb.functions.rows`).

They keep current by subscribing to training's "model written" (:mod:`sqlnb.events`): rebuilt,
in the transaction of the write, when the database's :class:`Shape` changes (its tokenizers,
which steps its models need: sqlnb_functions records it) or sqlnb's version does. A write never
builds DuckDB's lookup rows: it deletes the written model's, and the macros build the row of a
model without one in each query until :func:`store` (``sqlnb functions``) stores it. An unknown
model name, and text for a model trained from a tokens table (which has no tokenizer), are
errors that name the model.
"""

from __future__ import annotations

import json
from typing import Any

from sqlglot import exp

from sqlnb import cache, catalog, templates
from sqlnb.catalog import TOKENIZERS
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.functions import forms, lists
from sqlnb.functions.shape import SERVED, Shape, missing
from sqlnb.functions.sqlite import register_sqlite
from sqlnb.kinds.text import BASE
from sqlnb.version import __version__

__all__ = ["refresh", "register_sqlite", "statements", "store", "store_functions"]

RECORD = "sqlnb_functions"


def refresh(db: Database, model: str | None = None) -> None:
    """Keep the SQL functions current after a write of ``model`` (a training, append, retune,
    import, calibration or drop; inside its transaction): rewrite them if the database's
    :class:`Shape` changed (or sqlnb did), else leave them. What else the write makes stale is
    the form's (:meth:`Form.stale`: DuckDB's stored lookup row of the model; the macros build
    it in each query until ``sqlnb functions`` stores it again), and so are the rows the
    functions read (:meth:`Form.rows`: ClickHouse's dictionaries)."""
    form = forms.of(db)
    # relation_type, not exists(): a failed probe would abort PostgreSQL's transaction
    if form is None or db.relation_type(TOKENIZERS.node()) is None:
        return
    if db.dialect.functions_check_tables and db.relation_type(BASE.node()) is None:
        return  # the engine checks a function's tables when it is created: no text model yet
    record = exp.to_table(RECORD)
    fresh = db.relation_type(record) is None  # no functions yet: no record to delete either
    # first: which text models have no stored lookup row (DuckDB's) is part of the shape
    for statement in form.stale(db, model, None if fresh else record):
        db.execute(statement)
    shape, built = Shape.read(db, form, None if fresh else record)  # (one read: a job on Spark)
    keys = shape.keys
    wanted: list[tuple[str, str | None]] = [(__version__, k) for k in sorted(keys)]
    if built and sorted(built, key=str) == sorted(wanted or [(__version__, None)], key=str):
        for row in form.rows(db, None if model is None else [model]):
            db.execute(row)
        return
    form.check(db, Shape.recorded(keys))  # before anything is dropped
    # the tables they read, as this sqlnb keeps them (with the rows an earlier one left out)
    tables = {t.backfill: t for k in SERVED for t in catalog.tables(k) if t.backfill}
    backfills = [templates.render(name) for name in sorted(tables)]
    for statement in (*catalog.creates(db, *SERVED), *backfills, *form.outdated(db)):
        db.execute(statement)
    where = form.where(db)  # the functions' text names the schema or the database
    serves = form.serves(db, keys)  # ClickHouse's: the server's, for every database's models
    key = f"macros {db.dialect.name} {where} {cache.source_stamp()} {json.dumps([keys, serves])}"
    key += " fresh" * fresh
    texts = cache.load(key)  # the same for every database: built once per machine
    if not (isinstance(texts, list) and all(isinstance(t, str) for t in texts)):
        texts = [
            text
            for s in statements(db, keys, serves, fresh=fresh)
            for text in (db.texts(s) if isinstance(s, exp.Expr) else [s])
        ]
        cache.store(key, texts)
    for text in texts:
        db.execute(text)
    for row in form.rows(db):  # the functions, then the rows they read
        db.execute(row)


def store(db: Database) -> list[str]:
    """Store the lookup row of each DuckDB text model that has none (``sqlnb functions``), so
    that the macros read it instead of building it in each query, and rebuild the macros
    without that step; returns the models stored. Other engines' functions need nothing."""
    form = forms.of(db)
    if form is None or not form.lookup_rows or db.relation_type(TOKENIZERS.node()) is None:
        return []
    with db.transaction():
        refresh(db)  # first: rows another sqlnb stored go
        models = missing(db)
        for statement in lists.lookups(db, models):
            db.execute(statement)
        refresh(db)  # the macros without the step that builds a row
    return models


def store_functions(connection: Any) -> list[str]:
    """``sqlnb functions`` on a connection: :func:`store`."""
    return store(Database.connect(connection))


def statements(
    db: Database, keys: list[str], built: list[str] | None = None, *, fresh: bool = False
) -> list[exp.Expr | str]:
    """The statements that (re)write the functions for the :class:`Shape` of ``keys`` (or of
    ``built``, ClickHouse's: every database's, :meth:`Form.serves`) and then record ``keys``
    (last: on an engine without transactions a rebuild that fails half-way is not recorded, so
    the next write builds them again; ``fresh``: the record's table is made here, empty)."""
    form = forms.of(db)
    if form is None:
        raise SqlnbError(f"{db.dialect.name} keeps no SQL functions")
    shape = Shape.recorded(keys if built is None else built)
    record = exp.to_table(RECORD)
    rows = [
        exp.select(exp.convert(__version__).as_("version"), exp.convert(k).as_("settings"))
        for k in keys
    ] or [exp.select(exp.convert(__version__).as_("version"), exp.null().as_("settings"))]
    recorded: exp.Query = rows[0]
    for row in rows[1:]:
        recorded = exp.union(recorded, row, distinct=False)
    return [
        *form.functions(db, shape),
        templates.render("catalog/create_functions.sql"),
        *([] if fresh else [exp.delete(record, where=exp.true())]),
        exp.insert(recorded, record, columns=["version", "settings"]),
    ]
