"""Drift monitoring of a text model on new documents (``sqlnb monitor``), in SQL.

For each window of the new documents (by ``--time-column`` and ``--every``, or one window) and
each class of the model: the window's documents and tokens (after the model's tokenizer), the
share of its tokens whose word the model never saw (``unknown_rate``), the Jensen-Shannon
divergence between the training word distribution and the window's (``sql/monitor/drift.sql``
gives the formula), the share of its documents ``predict`` labels with the class, the class's
training prior, and the prior Saerens et al.'s EM estimates on the window (what ``predict
--priors estimate`` uses on the same documents: :func:`sqlnb.decisions.estimate`).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import catalog, decisions, labels, pipeline, settings, templates
from sqlnb.engine import Database, scratch
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Docs, Source, Tokens, as_source, source_node
from sqlnb.kinds.text import WORD_COUNTS
from sqlnb.tokenizer import Tokenizer

if TYPE_CHECKING:
    from sqlnb.model import Model

COLUMNS = (
    "window",
    "label",
    "documents",
    "tokens",
    "unknown_rate",
    "js_divergence",
    "predicted_share",
    "training_prior",
    "estimated_prior",
)
TYPES = ("", "VARCHAR", "BIGINT", *(["DOUBLE"] * 6))
WINDOWS, TOKENS, PREDICTIONS, SCORED = (
    scratch.name(f"sqlnb_monitor_{what}") for what in ("windows", "tokens", "predictions", "scored")
)


@dataclass(frozen=True)
class Windows:
    """How the documents fall into windows: a time column and a unit, or none (one window)."""

    column: str | None = None
    every: str = settings.EVERY.default

    def check(self) -> None:
        settings.EVERY.check(self.every)


def _time_type(db: Database, table: str, column: str) -> str:
    """DATE or TIMESTAMP, the time column's type (the windows' starts have it)."""
    columns = db.columns(source_node(table))
    found = {c.lower(): (c, t) for c, t in columns.items()}
    if column.lower() not in found:
        raise SqlnbError(f"table {table!r} has no column {column!r} (--time-column)")
    name, type_name = found[column.lower()]
    upper = str(type_name or "TIMESTAMP").upper()  # (SQLite's columns may have no type)
    if "DATE" not in upper and "TIME" not in upper:
        raise SqlnbError(
            f"column {name!r} of table {table!r} is {type_name}, not a DATE or TIMESTAMP "
            "(--time-column)"
        )
    return "DATE" if "TIME" not in upper else "TIMESTAMP"


def _windows(db: Database, source: Source, windows: Windows) -> tuple[exp.Query, str | None]:
    """The query of (doc_id, window_start, n) over the documents of ``source``, and the type
    of the windows' starts (None: no time column)."""
    if isinstance(source, Docs):
        table, id_column = source.table, source.id
    elif isinstance(source, Tokens):
        table, id_column = source.table, source.doc
    else:
        raise SqlnbError("monitor measures text: give --tokens or --docs")
    time: exp.Expr = exp.cast(exp.null(), "TIMESTAMP")  # one window, NULL
    type_name = None
    if windows.column is not None:
        type_name = _time_type(db, table, windows.column)
        time = exp.column(windows.column, "s", quoted=True)
    name = templates.for_dialect("monitor/windows.sql", db.dialect.name)
    query = templates.render(
        name,
        id=exp.column(id_column, "s", quoted=True),
        time=time,
        unit=windows.every,
        source=source_node(table),
    )
    assert isinstance(query, exp.Query)
    return query, type_name


def monitor(
    db: Database, model: Model, data: str | Source, windows: Windows
) -> tuple[list[dict[str, Any]], str | None]:
    """The monitor's rows, one per (window, class), windows in time order (a NULL window
    last), classes in the model's order; and the type of the windows (DATE or TIMESTAMP, as
    the time column; None without one)."""
    windows.check()
    source = as_source(data)
    if WORD_COUNTS not in model.kind.tables:
        raise SqlnbError(f"monitor measures text drift: model {model.name!r} is {model.kind_name}")
    if isinstance(source, Docs) and not model.params.get("tokenizer"):
        raise SqlnbError(
            f"model {model.name!r} was trained from a tokens table (it has no tokenizer): "
            "give --tokens"
        )
    window_query, type_name = _windows(db, source, windows)
    if isinstance(source, Docs):
        source.check(db)
        tokens: exp.Query = Tokenizer.from_dict(model.params["tokenizer"]).tokens(source, db)
    else:
        tokens = source.query(db) if isinstance(source, Tokens) else exp.select()
    classes = catalog.classes(db, model.name)
    old = decisions.training_priors(db, model)
    made: list[exp.Table] = []
    try:
        db.stage("windows")
        windows_table = db.temporary(WINDOWS, window_query)
        made.append(windows_table)
        db.stage("tokenizing")  # the one pass over the new data's text or tokens
        tokens_table = db.temporary(TOKENS, tokens)
        made.append(tokens_table)
        if isinstance(source, Tokens):  # checked on the copy (the message names the source)
            source.check(db, exp.select("*").from_(tokens_table.copy()))
        db.stage("scoring")
        scored = db.temporary(SCORED, _scoring(db, model, windows_table, tokens_table))
        made.append(scored)
        predicted = db.temporary(PREDICTIONS, _predictions(db, model, scored))
        made.append(predicted)
        db.stage("measuring")
        docs = db.fetch_dicts(templates.select("monitor/documents.sql", windows=windows_table))
        drift = {
            int(r["n"]): r
            for r in db.fetch_dicts(
                templates.select(
                    "monitor/drift.sql",
                    windows=windows_table,
                    tokens=tokens_table,
                    model=model.name,
                )
            )
        }
        shares: dict[tuple[int, str], int] = {}
        for r in db.fetch_dicts(
            templates.select("monitor/shares.sql", windows=windows_table, predictions=predicted)
        ):
            shares[(int(r["n"]), str(r["label"]))] = int(r["documents"])
        estimated: dict[int, dict[int, float]] = {}
        for d in docs:
            db.stage(f"estimating priors, window {d['n']}")
            window_scores = templates.select(
                "monitor/scored.sql", scored=scored, windows=windows_table, n=int(d["n"])
            )
            estimated[int(d["n"])], _ = decisions.estimate(db, window_scores, old)
    finally:
        for table in made:
            db.drop_temporary(table)
    if not docs:
        raise SqlnbError("no documents to monitor: the table has no rows")
    rows = []
    for d in sorted(docs, key=lambda d: (d["window_start"] is None, str(d["window_start"]))):
        n, found = int(d["n"]), drift.get(int(d["n"]), {})
        start = _start(d["window_start"], type_name)
        for c in classes:
            class_id, label = int(c["class_id"]), str(c["label"])
            rows.append(
                {
                    "window": start,
                    "label": label,
                    "documents": int(d["documents"]),
                    "tokens": float(found.get("tokens") or 0),
                    "unknown_rate": _number(found.get("unknown_rate")),
                    "js_divergence": _number(found.get("js_divergence")),
                    "predicted_share": shares.get((n, label), 0) / int(d["documents"]),
                    "training_prior": old[class_id],
                    "estimated_prior": estimated[n].get(class_id, 0.0),
                }
            )
    return rows, type_name


def _scoring(db: Database, model: Model, windows: exp.Table, tokens: exp.Table) -> exp.Select:
    """The posteriors (doc_id, class_id, proba, rn) of every document of ``windows``, scored
    once from the tokens already read (``tokens``: doc_id, word, count), as predict scores
    them (calibrated; rn = 1 marks predict's label)."""
    copied = Tokens(tokens.name, doc="doc_id", word="word", count="count")
    documents = templates.select("input/documents.sql", source=windows.copy())
    built = pipeline.Pipeline.build(db, model, copied, documents=documents, check=False)
    final = exp.select("doc_id", "class_id", "proba", "rn").from_(pipeline.POSTERIOR)
    return built.select(final)


def _predictions(db: Database, model: Model, scored: exp.Table) -> exp.Select:
    """predict's rows (doc_id, label, ...) from the posteriors ``scored``: the label of rn = 1,
    or a hierarchical model's walk at its stored confidence (not scored again)."""
    confidence = labels.confidence_for(model, None)
    if confidence is not None:
        tree = pipeline.Pipeline(labels.walk_ctes(db, model, scored.name))
        return tree.select(labels.walk(confidence))
    return templates.select(
        "predict/labels.sql",
        posterior=scored.copy(),
        label=pipeline.label(model),
        model=exp.convert(model.name),
    )


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def _start(value: Any, type_name: str | None) -> Any:
    """A window's start as a date or a datetime (SQLite and some clients give text)."""
    if value is None or type_name is None:
        return None
    if isinstance(value, str):
        value = datetime.datetime.fromisoformat(value)
    if type_name == "DATE" and isinstance(value, datetime.datetime):
        return value.date()
    if type_name == "TIMESTAMP" and not isinstance(value, datetime.datetime):
        return datetime.datetime(value.year, value.month, value.day)
    return value


def as_query(rows: list[dict[str, Any]], type_name: str | None) -> exp.Query:
    """The rows as a query (a UNION ALL of one-row SELECTs, typed), for ``--output``."""
    types = (type_name or "TIMESTAMP", *TYPES[1:])
    selects = []
    for row in rows:
        values = []
        for (name, value), type_ in zip(row.items(), types):
            literal = exp.null() if value is None else exp.convert(_literal(value))
            values.append(exp.cast(literal, type_).as_(exp.to_identifier(name, quoted=True)))
        selects.append(exp.select(*values))
    query: exp.Query = selects[0]
    for select in selects[1:]:
        query = exp.union(query, select, distinct=False)
    return query


def _literal(value: Any) -> Any:
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat(sep=" ") if isinstance(value, datetime.datetime) else str(value)
    return value
