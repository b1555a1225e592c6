"""``sqlnb report``: one self-contained HTML file about a model on labeled data.

Every number comes from SQL run in the database: the evaluation is :meth:`Model.evaluate`'s
(so it equals ``sqlnb evaluate --json``); calibration, the Brier score and the misclassified
documents' words are the queries of ``sql/report/``, added to evaluation's own pipeline; the
words' contributions are the kind's own (those ``explain`` shows). The page runs no script and
loads nothing: plots are inline SVG, styles one ``<style>`` block, and the numbers are also
embedded as JSON (``<script type="application/json" id="sqlnb-report">``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import catalog, pipeline, templates
from sqlnb.engine import scratch
from sqlnb.engine.bulk import replacing
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Labels, Source, as_source, labels_for
from sqlnb.kinds.presentation import word_note
from sqlnb.monitor import Windows, monitor
from sqlnb.pipeline import POSTERIOR, TRUTH
from sqlnb.report.page import render_html

if TYPE_CHECKING:
    from sqlnb.model import Model

SCORES, CONTRIBUTIONS = scratch.name("sqlnb_report_scores"), "sqlnb_report_contributions"
N_MISCLASSIFIED, N_WORDS = 5, 6


def _scores_statement(model: Model, data: str | Source, labels: str | Labels | None) -> exp.Expr:
    """CREATE TEMPORARY TABLE of report/scores.sql over evaluation's own pipeline."""
    scores = templates.select(
        "report/scores.sql",
        posterior=exp.to_table(POSTERIOR),
        truth=exp.to_table(TRUTH),
        model=model.name,
    )
    evaluated = pipeline.evaluation_pipeline(model.db, model, data, labels)
    return exp.Create(
        this=exp.to_table(SCORES),
        kind="TABLE",
        expression=evaluated.select(scores),
        properties=exp.Properties(expressions=[exp.TemporaryProperty()]),
    )


def _contributions(
    model: Model, data: str | Source, misclassified: exp.Select
) -> list[dict[str, Any]]:
    """The words of the misclassified documents that pushed them to the wrong class: the
    kind's contributions (as ``explain``'s) over the inputs of those documents alone."""
    if word_note(model.kind) is None:
        return []
    inputs = model.kind.inputs(model.db, as_source(data), model.params)
    ids = exp.select("doc_id").from_(misclassified.subquery("m"))
    query = templates.select(
        "report/contributions.sql",
        misclassified=misclassified,
        contributions=exp.to_table(CONTRIBUTIONS),
        top=N_WORDS,
    )
    for name, relation in inputs.items():
        kept = (
            exp.select("*")
            .from_(relation.subquery("i"))
            .where(exp.column("doc_id").isin(query=ids))
        )
        query = query.with_(name, as_=kept, copy=False)
    query = query.with_(
        CONTRIBUTIONS, as_=model.kind.contributions(model.name, model.params), copy=False
    )
    return model.db.fetch_dicts(query)


def report_numbers(
    model: Model, data: str | Source, labels: str | Labels | None = None
) -> dict[str, Any]:
    """Everything the report shows: the evaluation, calibration, misclassified documents."""
    numbers: dict[str, Any] = model.evaluate(data, labels)
    method = catalog.calibration(model.db, model.name)
    if method is not None:  # and the same of the model's own probabilities, to compare
        own = model.evaluate(data, labels, calibrate=False)
        numbers["calibration"] = method
        numbers["uncalibrated"] = {
            k: own[k] for k in ("accuracy", "log_loss", "brier", "ece", "reliability")
        }
    scores = exp.to_table(SCORES)
    drop_it = templates.render("catalog/drop_table.sql", table=scores)
    model.db.execute(_scores_statement(model, data, labels))  # a scratch name: none to drop
    try:
        misclassified = templates.select(
            "report/misclassified.sql", scores=scores, top=N_MISCLASSIFIED
        )
        wrong = model.db.fetch_dicts(misclassified)
        words = _contributions(model, data, misclassified)
    finally:
        model.db.execute(drop_it)
    for doc in wrong:
        doc["words"] = [
            {k: w[k] for k in ("word", "count", "contribution", "infinite")}
            for w in words
            if w["doc_id"] == doc["doc_id"]
        ]
    numbers["misclassified"] = wrong
    numbers["priors"] = {
        c["label"]: 0.0 if c["log_prior"] is None else math.exp(c["log_prior"])
        for c in model.classes()
    }
    numbers["model"] = {
        "name": model.name,
        "kind": model.kind_name,
        "params": model.params,
        "n_docs": model.info.get("n_docs"),
        "n_classes": model.info.get("n_classes"),
        "n_features": model.info.get("n_features"),
    }
    return numbers


def _name(source: object) -> str:
    return source if isinstance(source, str) else str(getattr(source, "table", source))


def write_report(
    model: Model,
    data: str | Source,
    labels: str | Labels | None,
    path: Path,
    windows: Windows | None = None,
) -> dict[str, Any]:
    """Write the HTML report of ``model`` on labeled ``data`` to ``path``; return its numbers.
    With ``windows`` (a time column), also the drift of ``data`` over time (``sqlnb
    monitor``'s rows, in ``numbers["drift"]``)."""
    numbers = report_numbers(model, data, labels)
    if windows is not None:
        rows, _ = monitor(model.db, model, data, windows)
        numbers["drift"] = [{**r, "window": None if r["window"] is None else str(r["window"])}
            for r in rows]  # fmt: skip
    page = render_html(model, numbers, _name(data), _name(labels_for(as_source(data), labels)))
    try:  # written whole under another name, then renamed: never a half-written report
        with replacing(Path(path)) as partial:
            partial.write_text(page, encoding="utf-8")
    except OSError as error:
        raise SqlnbError(f"cannot write {str(path)!r}: {error.strerror or error}") from None
    return numbers
