"""SQLite's SQL functions: Python functions registered on a sqlite3 connection (SQLite has no
SQL-defined functions), each running the rows form's pipeline for its model
(:func:`sqlnb.functions.rows.one_text`)."""

from __future__ import annotations

import functools
import json
from typing import Any

from sqlglot import exp

from sqlnb import catalog
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.functions import wrap
from sqlnb.functions.rows import checked_text, one_text
from sqlnb.functions.shape import MODEL, SERVED, TEXT
from sqlnb.kinds import KINDS
from sqlnb.tokenizer import register_functions


def register_sqlite(connection: Any) -> None:
    """Give a sqlite3 connection ``sqlnb_classify(model, text)`` and ``sqlnb_proba(model,
    text)``: SQLite has no SQL-defined functions, so these are Python functions that run, for
    their one text, the pipeline ``predict`` runs for the model (:func:`one_text`, built when
    the model is first used, and again when its catalog row or calibration changes; set-based
    queries stay faster: ``sqlnb predict --docs``). One query gives a text's label and
    probability together: the second of the pair in a row takes them from the first, so that a
    row never holds one model's label and a retrained model's probability. An unknown model,
    or one without a tokenizer, is an error (SQLite reports a Python function's error as
    "user-defined function raised exception"; the message goes to stderr with
    ``sqlite3.enable_callback_tracebacks(True)``)."""
    db = Database.connect(connection)
    if not db.dialect.python_functions:
        raise SqlnbError("register_sqlite takes a sqlite3 connection")
    register_functions(db)  # now: not while a statement runs, when a query is built
    placeholders = {n: exp.Placeholder(this=n) for n in (MODEL.name, TEXT.name)}
    refusal = wrap.raising(checked_text(exp.null(), False), None)
    refused = db.sql(wrap.bound(exp.select(refusal, refusal.copy()), placeholders))
    method: exp.Expr = exp.null()
    if db.relation_type(catalog.CALIBRATION.node()) is not None:
        method = (
            exp.select(exp.Min(this=exp.column("method")))
            .from_(catalog.CALIBRATION.node())
            .where(exp.column("model").eq(MODEL.copy()))
            .subquery()
        )
    state = exp.select("kind", "params", "trained_at", method).from_(catalog.MODELS.node())
    state_sql = db.sql(wrap.bound(state.where(exp.column("model").eq(MODEL)), placeholders))
    built: dict[str, tuple[Any, str]] = {}  # model -> (its state, its query)
    pending: dict[int, tuple[Any, Any]] = {}  # what the pair's other function is to return

    def query_for(model: str) -> str:
        found = connection.execute(state_sql, {MODEL.name: model}).fetchone() if model else None
        the_kind = KINDS.get(found[0]) if found is not None else None
        if found is None or the_kind not in SERVED:
            return refused  # its error
        if not json.loads(found[1]).get("tokenizer"):
            return refused
        if model not in built or built[model][0] != found:
            one = one_text(db, catalog.entry(db, model))
            built[model] = (found, db.sql(wrap.bound(one, placeholders)))
        return built[model][1]

    def raise_error(message: str) -> None:
        raise SqlnbError(message)

    def scored(position: int, model: str, body: str | None) -> Any:
        key = (model, body)
        if position in pending and pending[position][0] == key:
            return pending.pop(position)[1]
        values = {MODEL.name: model, TEXT.name: body}
        row = connection.execute(query_for(model), values).fetchone()
        pending.clear()
        pending[1 - position] = (key, row[1 - position])
        return row[position]

    db.register_function("sqlnb_raise", raise_error, 1)
    for position, name in enumerate(("sqlnb_classify", "sqlnb_proba")):
        db.register_function(name, functools.partial(scored, position), 2)
