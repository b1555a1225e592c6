"""``sqlnb report``: one self-contained HTML file about a model on labeled data.

Every number comes from SQL run in the database: the evaluation is :meth:`Model.evaluate`'s
(so it equals ``sqlnb evaluate --json``); calibration, the Brier score and the misclassified
documents' words are the queries of ``sql/report/``, run over evaluation's own pipeline. The
page runs no script and loads nothing: plots are inline SVG, styles one ``<style>`` block, and
the numbers are also embedded as JSON (``<script type="application/json" id="sqlnb-report">``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path
from typing import Any

from sqlglot import exp

from sqlnb import __version__, templates
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Labels, Tokens
from sqlnb.model import POSTERIOR, TRUTH, Model, Source

SCORES = "sqlnb_report_scores"
N_MISCLASSIFIED, N_WORDS, N_TOP_WORDS = 5, 6, 10


# --- the numbers -----------------------------------------------------------------------------


def _scores_statement(model: Model, data: str | Source, labels: Any) -> exp.Expr:
    """CREATE TEMPORARY TABLE of report/scores.sql over evaluation's own pipeline (its CTEs)."""
    create, _, _ = model.evaluation_statements(data, labels)
    outcomes = create.args["expression"]
    scores = templates.render(
        "report/scores.sql",
        posterior=exp.to_table(POSTERIOR),
        truth=exp.to_table(TRUTH),
        model=model.name,
    )
    assert isinstance(scores, exp.Select) and isinstance(outcomes, exp.Select)
    for cte in outcomes.ctes:
        scores = scores.with_(cte.alias, as_=cte.this)
    return exp.Create(
        this=exp.to_table(SCORES),
        kind="TABLE",
        expression=scores,
        properties=exp.Properties(expressions=[exp.TemporaryProperty()]),
    )


def _contributions(
    model: Model, data: str | Source, misclassified: exp.Expr
) -> list[dict[str, Any]]:
    """The words of the misclassified documents that pushed them to the wrong class."""
    if model.kind.source != "tokens":
        return []
    source = Tokens(data) if isinstance(data, str) else data
    [tokens] = model.kind.inputs(model.db, source, model.params).values()  # (doc_id, word, count)
    bernoulli = model.kind_name == "bernoulli"
    weights = templates.render(
        "report/weights_bernoulli.sql" if bernoulli else "report/weights.sql", model=model.name
    )
    query = templates.render(
        "report/contributions.sql",
        misclassified=misclassified,
        tokens=tokens,
        weights=weights,
        binary=bernoulli,
        top=N_WORDS,
    )
    return model.db.fetch_dicts(query)


def report_numbers(
    model: Model, data: str | Source, labels: str | Labels | None = None
) -> dict[str, Any]:
    """Everything the report shows: the evaluation, calibration, misclassified documents."""
    numbers: dict[str, Any] = model.evaluate(data, labels)
    scores = exp.to_table(SCORES)
    drop_it = templates.render("catalog/drop_table.sql", table=scores)
    model.db.execute(drop_it)
    model.db.execute(_scores_statement(model, data, labels))
    try:
        reliability = templates.render("report/reliability.sql", scores=scores)
        bins = model.db.fetch_dicts(reliability)
        calibration = model.db.fetch_dicts(
            templates.render("report/calibration.sql", scores=scores, reliability=reliability)
        )[0]
        misclassified = templates.render(
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
    numbers["brier"] = calibration["brier"]
    numbers["ece"] = calibration["ece"]
    numbers["reliability"] = [
        {k: b[k] for k in ("bin", "n_docs", "confidence", "accuracy")} for b in bins
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


# --- drawing ---------------------------------------------------------------------------------

INK, MUTED, GRID = "#1f2937", "#6b7280", "#e5e7eb"
BLUE, RED = ("#eff6ff", "#1e40af"), ("#fff1f2", "#be123c")
METRIC_COLOURS = {"precision": "#3b82f6", "recall": "#14b8a6", "f1": "#8b5cf6"}
CHAR = 6.6  # the width of a character at 11px, roughly


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _mix(scale: tuple[str, str], t: float) -> str:
    """The colour a fraction ``t`` of the way along a two-colour scale."""
    t = min(max(t, 0.0), 1.0)
    a = [int(scale[0][i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(scale[1][i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


def _short(text: str, limit: int = 18) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _svg(width: float, height: float, body: Iterable[str], label: str) -> str:
    return (
        f'<svg width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{_e(label)}">'
        + "".join(body)
        + "</svg>"
    )


def _text(x: float, y: float, text: str, extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" {extra}>{_e(text)}</text>'


def _rect(
    x: float, y: float, w: float, h: float, fill: str, title: str = "", extra: str = ""
) -> str:
    tip = f"<title>{_e(title)}</title>" if title else ""
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" height="{max(h, 0):.1f}" '
        f'fill="{fill}" {extra}>{tip}</rect>'
    )


def _turn(degrees: float, x: float, y: float) -> str:
    return f'transform="rotate({degrees} {x:.1f} {y:.1f})"'


def _prob_cell(p: float, title: str) -> str:
    """A table cell holding a probability, shaded by it."""
    colour = "#fff" if p > 0.55 else INK
    return (
        f'<td class="p" style="background:{_mix(BLUE, p)};color:{colour}" title="{_e(title)}">'
        f"{p:.2f}</td>"
    )


def _fmt(value: float | None, digits: int = 4) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def heatmap(labels: Sequence[str], counts: dict[tuple[str, str], int], *, rows: bool) -> str:
    """The confusion matrix: counts, or with ``rows`` each row divided by its total. Cells shrink
    with the number of classes (column labels turn 45 or 90 degrees when they do not fit); a cell
    shows its number only when it fits; every cell has a hover title. The diagonal is blue,
    errors red."""
    k = max(len(labels), 1)
    cell = max(9.0, min(60.0, 520.0 / k))
    tick = 11 if cell >= 14 else 9
    short = [_short(label) for label in labels]
    longest = max((len(s) for s in short), default=1) * CHAR * tick / 11
    turn = 0 if all(len(s) * CHAR <= cell - 4 for s in short) else 45 if cell >= 20 else 90
    left = longest + 30
    top = 40 + (longest if turn == 90 else longest * 0.72 if turn else 0)
    middle = top + cell * k / 2
    totals = {t: sum(counts.get((t, p), 0) for p in labels) for t in labels}
    biggest = max(counts.values(), default=1) or 1
    body = [
        _text(left + cell * k / 2, 12, "predicted label", 'class="axis" text-anchor="middle"'),
        _text(
            12, middle, "true label", f'class="axis" text-anchor="middle" {_turn(-90, 12, middle)}'
        ),
    ]
    font = 13 if cell >= 40 else 10
    for j, label in enumerate(short):
        x = left + (j + 0.5) * cell
        style = f'class="tick" font-size="{tick}"'
        if turn:
            x += tick * 0.35 if turn == 90 else 0
            body.append(_text(x, top - 6, label, f"{style} {_turn(-turn, x, top - 6)}"))
        else:
            body.append(_text(x, top - 8, label, f'{style} text-anchor="middle"'))
    for i, true in enumerate(labels):
        y = top + i * cell
        body.append(
            _text(
                left - 6,
                y + cell / 2 + tick * 0.35,
                short[i],
                f'class="tick" font-size="{tick}" text-anchor="end"',
            )
        )
        for j, predicted in enumerate(labels):
            n = counts.get((true, predicted), 0)
            share = n / totals[true] if totals[true] else 0.0
            value = 0.1 + 0.9 * (share if rows else math.sqrt(n / biggest))
            fill = _mix(BLUE if i == j else RED, value) if n else "#f9fafb"
            title = f"true {true}, predicted {predicted}: {n} ({share:.1%} of {true})"
            body.append(_rect(left + j * cell, y, cell - 1, cell - 1, fill, title))
            shown = f"{share:.0%}" if rows else str(n)
            if n and cell >= 16 and len(shown) * font * 0.62 <= cell - 4:
                colour = "#fff" if value > 0.55 else INK
                extra = (
                    f'text-anchor="middle" font-size="{font}" fill="{colour}" pointer-events="none"'
                )
                body.append(
                    _text(left + (j + 0.5) * cell, y + cell / 2 + font * 0.35, shown, extra)
                )
    what = "row-normalised" if rows else "counts"
    right = longest * 0.72 + 4 if turn == 45 else 8
    return _svg(left + cell * k + right, top + cell * k + 8, body, f"confusion matrix, {what}")


def class_bars(labels: Sequence[str], per_class: dict[str, dict[str, Any]]) -> str:
    """Precision, recall and F1 of every class as bars, with its support."""
    row = 22.0 if len(labels) <= 12 else 16.0
    left = max((len(_short(x, 24)) for x in labels), default=1) * CHAR + 14
    panel, gap, top = (110.0 if len(labels) <= 6 else 170.0), 12.0, 26.0
    width = left + 3 * (panel + gap) + 50
    body = []
    for m, (metric, colour) in enumerate(METRIC_COLOURS.items()):
        x0 = left + m * (panel + gap)
        body.append(
            _text(x0, 14, "F1" if metric == "f1" else metric, f'class="head" fill="{colour}"')
        )
        body.append(
            f'<line x1="{x0:.1f}" y1="{top - 4}" x2="{x0:.1f}" '
            f'y2="{top + row * len(labels):.1f}" stroke="{GRID}"/>'
        )
    body.append(_text(width - 6, 14, "support", 'class="head" text-anchor="end"'))
    for i, label in enumerate(labels):
        y = top + i * row
        r = per_class[label]
        if i % 2 == 0:
            body.append(_rect(0, y - 2, width, row, "#f9fafb"))
        body.append(
            _text(left - 8, y + row * 0.6, _short(label, 24), 'class="tick" text-anchor="end"')
        )
        for m, (metric, colour) in enumerate(METRIC_COLOURS.items()):
            x0 = left + m * (panel + gap)
            value = float(r[metric])
            w = (panel - 44) * value
            body.append(
                _rect(x0, y + 2, w, row - 8, colour, f"{label}: {metric} {value:.4f}", 'rx="2"')
            )
            body.append(_text(x0 + w + 4, y + row * 0.6, f"{value:.3f}", 'class="num"'))
        body.append(
            _text(width - 6, y + row * 0.6, str(r["support"]), 'class="num" text-anchor="end"')
        )
    return _svg(width, top + row * len(labels) + 4, body, "per-class precision, recall and F1")


def reliability_diagram(bins: Sequence[dict[str, Any]]) -> str:
    """Observed accuracy against the predicted class's probability, 10 bins, with a histogram of
    the documents per bin below."""
    left, top, size, hist = 46.0, 12.0, 300.0, 64.0
    by_bin = {int(b["bin"]): b for b in bins}
    most = max((int(b["n_docs"]) for b in bins), default=1)
    body = []
    for t in range(0, 11, 2):
        v = t / 10
        y = top + size * (1 - v)
        x = left + size * v
        body.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{left + size}" y2="{y:.1f}" stroke="{GRID}"/>'
        )
        body.append(_text(left - 6, y + 4, f"{v:.1f}", 'class="tick" text-anchor="end"'))
        body.append(
            _text(x, top + size + hist + 30, f"{v:.1f}", 'class="tick" text-anchor="middle"')
        )
    for b in range(10):
        x = left + size * b / 10
        found = by_bin.get(b)
        if found is None:
            continue
        n, acc, conf = int(found["n_docs"]), float(found["accuracy"]), float(found["confidence"])
        title = (
            f"confidence {b / 10:.1f}–{(b + 1) / 10:.1f}: {n} documents, mean confidence "
            f"{conf:.3f}, accuracy {acc:.3f}"
        )
        body.append(
            _rect(
                x + 1,
                top + size * (1 - acc),
                size / 10 - 2,
                size * acc,
                "#93c5fd",
                title,
                'stroke="#3b82f6"',
            )
        )
        low, high = sorted((acc, conf))
        gap = 'stroke="#f87171" stroke-width="0.8"'
        body.append(
            _rect(
                x + 1,
                top + size * (1 - high),
                size / 10 - 2,
                size * (high - low),
                "url(#gap)",
                title,
                gap,
            )
        )
        h = hist * n / most
        body.append(_rect(x + 1, top + size + hist + 14 - h, size / 10 - 2, h, "#9ca3af", title))
        body.append(
            f'<circle cx="{left + size * conf:.1f}" cy="{top + size * (1 - acc):.1f}" '
            f'r="3.5" fill="{INK}"><title>{_e(title)}</title></circle>'
        )
    body.append(
        f'<line x1="{left}" y1="{top + size}" x2="{left + size}" y2="{top}" '
        f'stroke="{MUTED}" stroke-dasharray="4 4"/>'
    )
    body.append(
        f'<rect x="{left}" y="{top}" width="{size}" height="{size}" fill="none" stroke="{MUTED}"/>'
    )
    body.append(
        _text(
            left + size / 2,
            top + size + hist + 46,
            "predicted probability of the predicted class",
            'class="axis" text-anchor="middle"',
        )
    )
    body.append(
        _text(
            14,
            top + size / 2,
            "fraction correct",
            f'class="axis" text-anchor="middle" {_turn(-90, 14, top + size / 2)}',
        )
    )
    body.append(_text(left + 4, top + size + 26, "documents per bin", 'class="tick"'))
    defs = (
        '<defs><pattern id="gap" width="5" height="5" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)">'
        '<line x1="0" y1="0" x2="0" y2="5" stroke="#f87171" stroke-width="2"/></pattern></defs>'
    )
    return _svg(left + size + 12, top + size + hist + 54, [defs, *body], "reliability diagram")


def diverging_words(words: Sequence[dict[str, Any]], predicted: str, true: str) -> str:
    """A misclassified document's words: to the right (orange) those for the predicted class, to
    the left (blue) those for the true one; bars scaled to the largest finite contribution."""
    finite = [abs(w["contribution"]) for w in words if w["contribution"] is not None]
    largest = max(finite, default=1.0) or 1.0
    half, row = 152.0, 18.0
    ordered = sorted(words, key=lambda w: (-(w["infinite"] or 0), -(w["contribution"] or 0)))
    body = []
    for i, w in enumerate(ordered):
        y = i * row
        c, infinite = w["contribution"], int(w["infinite"] or 0)
        right = infinite > 0 or (not infinite and c > 0)
        size = (half - 44) * (1.0 if infinite else abs(c) / largest)
        value = ("+∞" if infinite > 0 else "−∞") if infinite else f"{c:+.2f}"
        title = f"{w['word']} ×{w['count']:g}: {value} to log P({predicted}) − log P({true})"
        word = f"{_short(str(w['word']), 18)} ×{w['count']:g}"
        middle = y + row * 0.65
        if right:
            body.append(_rect(half, y + 2, size, row - 5, "#fb923c", title, 'rx="2"'))
            body.append(_text(half - 6, middle, word, 'class="tick" text-anchor="end"'))
            body.append(_text(half + size + 4, middle, value, 'class="num"'))
        else:
            body.append(_rect(half - size, y + 2, size, row - 5, "#60a5fa", title, 'rx="2"'))
            body.append(_text(half + 6, middle, word, 'class="tick"'))
            body.append(_text(half - size - 4, middle, value, 'class="num" text-anchor="end"'))
    bottom = row * len(words) + 2
    body.append(f'<line x1="{half}" y1="0" x2="{half}" y2="{bottom:.1f}" stroke="{MUTED}"/>')
    return _svg(2 * half, bottom, body, "words of a misclassified document")


def gaussian_plot(feature: str, rows: Sequence[dict[str, Any]]) -> str:
    """One Gaussian feature: each class's mean ± one standard deviation."""
    sd = [math.sqrt(max(float(r["var"]), 0.0)) for r in rows]
    lo = min(float(r["mean"]) - 2 * s for r, s in zip(rows, sd))
    hi = max(float(r["mean"]) + 2 * s for r, s in zip(rows, sd))
    span = hi - lo or 1.0
    left = max(len(_short(str(r["label"]), 16)) for r in rows) * CHAR + 12
    width, row = 240.0, 15.0
    body = [_text(0, 12, _short(feature, 40), 'class="head"')]
    for i, (r, s) in enumerate(zip(rows, sd)):
        y = 26 + i * row

        def at(v: float) -> float:
            return left + width * (v - lo) / span

        mean = float(r["mean"])
        title = f"{feature} | {r['label']}: mean {mean:.6g}, variance {float(r['var']):.6g}"
        body.append(
            _text(left - 6, y + 4, _short(str(r["label"]), 16), 'class="tick" text-anchor="end"')
        )
        body.append(
            f'<line x1="{at(mean - s):.1f}" y1="{y:.1f}" x2="{at(mean + s):.1f}" '
            f'y2="{y:.1f}" stroke="#3b82f6" stroke-width="3"><title>{_e(title)}</title></line>'
        )
        body.append(
            f'<circle cx="{at(mean):.1f}" cy="{y:.1f}" r="3.5" fill="{INK}">'
            f"<title>{_e(title)}</title></circle>"
        )
    y = 26 + len(rows) * row
    body.append(
        f'<line x1="{left}" y1="{y - 6:.1f}" x2="{left + width}" y2="{y - 6:.1f}" stroke="{GRID}"/>'
    )
    body.append(_text(left, y + 6, f"{lo:.3g}", 'class="tick"'))
    body.append(_text(left + width, y + 6, f"{hi:.3g}", 'class="tick" text-anchor="end"'))
    return _svg(left + width + 10, y + 10, body, f"Gaussian feature {feature}")


# --- the page --------------------------------------------------------------------------------

CSS = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #f3f4f6; color: #1f2937;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 24px 20px 40px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 0 0 12px; }
h3 { font-size: 14px; margin: 0 0 6px; } h3.next { margin-top: 18px; }
.sub, .note, footer { color: #6b7280; }
.note { font-size: 12.5px; margin: 8px 0 0; max-width: 64ch; }
code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  background: #f3f4f6; padding: 1px 4px; border-radius: 4px; }
section { background: #fff; border: 1px solid #e5e7eb; border-radius: 10px; padding: 18px 20px;
  margin: 16px 0; overflow-x: auto; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px;
  background: none; border: 0; padding: 0; }
.card { background: #fff; border: 1px solid #e5e7eb; border-radius: 10px; padding: 12px 16px; }
.card b { display: block; font-size: 26px; font-weight: 650; font-variant-numeric: tabular-nums; }
.card span { color: #6b7280; font-size: 12.5px; }
.row { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-start; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 12px; }
.box { border: 1px solid #e5e7eb; border-radius: 8px; padding: 10px 12px; }
ol.words { list-style: none; margin: 0; padding: 0; font-size: 13px; }
ol.words li { display: grid; grid-template-columns: 1fr 70px; gap: 6px; align-items: center; }
ol.words i { display: block; height: 7px; background: #8b5cf6; border-radius: 2px; }
table { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 8px; text-align: left; border-bottom: 1px solid #f3f4f6; }
th { color: #6b7280; font-weight: 600; }
td.p { text-align: right; min-width: 46px; }
svg { font-size: 11px; font-family: inherit; }
svg .tick { fill: #374151; } svg .num { fill: #374151; font-variant-numeric: tabular-nums; }
svg .axis { fill: #6b7280; font-size: 12px; } svg .head { font-weight: 600; font-size: 12px; }
.pair { display: flex; flex-wrap: wrap; gap: 16px; margin: 16px 0; }
.pair > section { flex: 1 1 auto; margin: 0; }
.pair > section.fill { flex: 1 1 0; min-width: 340px; }
.docs { display: grid; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr)); gap: 12px; }
.docs p { margin: 0 0 8px; font-size: 13px; } b.true { color: #1d4ed8; } b.pred { color: #c2410c; }
"""


def _card(name: str, key: str, value: float | int, digits: int = 4) -> str:
    shown = str(value) if isinstance(value, int) else f"{value:.{digits}f}"
    return (
        f'<div class="card" data-metric="{key}" data-value="{_e(repr(value))}">'
        f"<b>{_e(shown)}</b><span>{_e(name)}</span></div>"
    )


def _labels_in_order(numbers: dict[str, Any]) -> list[str]:
    """The model's classes in class order, then labels only the test data has."""
    labels = [str(c) for c in numbers["priors"]]
    seen = set(labels)
    extra = [c["true"] for c in numbers["confusion"]] + list(numbers["per_class"])
    return labels + sorted({c for c in extra if c not in seen})


def _share(value: float, top: float) -> float:
    """A bar's length in percent of the largest one (negative values have none)."""
    return 100 * min(max(float(value) / top, 0.0), 1.0) if top > 0 else 0.0


def _words_section(model: Model) -> str:
    words = model.top_words(N_TOP_WORDS)
    by_class: dict[str, list[dict[str, Any]]] = {}
    for w in words:
        by_class.setdefault(w["label"], []).append(w)
    boxes = []
    for label, ws in by_class.items():
        top = max((float(w["score"]) for w in ws), default=0.0)
        items = "".join(
            f'<li title="score {float(w["score"]):.4g}, θ = {math.exp(w["log_theta"]):.3g}">'
            f'<span>{_e(w["word"])}</span><i style="width:{_share(w["score"], top):.0f}%"></i></li>'
            for w in ws
        )
        boxes.append(f'<div class="box"><h3>{_e(label)}</h3><ol class="words">{items}</ol></div>')
    return (
        '<section class="fill"><h2>Most indicative words</h2>'
        f'<div class="grid">{"".join(boxes)}</div><p class="note">Ranked by θ<sub>kw</sub> · '
        "(log θ<sub>kw</sub> − mean log θ of the word in the other classes), as "
        "<code>sqlnb show</code>; bars relative to each class's top word.</p></section>"
        if boxes
        else ""
    )


def _features_section(model: Model) -> str:
    gaussian, categories = model.gaussian(), model.categories()
    parts = []
    if gaussian:
        by_feature: dict[str, list[dict[str, Any]]] = {}
        for g in gaussian:
            by_feature.setdefault(g["feature"], []).append(g)
        plots = "".join(
            f'<div class="box">{gaussian_plot(f, rows)}</div>' for f, rows in by_feature.items()
        )
        parts.append(
            "<h3>Gaussian features: mean ± one standard deviation per class</h3>"
            f'<div class="row">{plots}</div>'
        )
    if categories:
        labels = list(dict.fromkeys(c["label"] for c in categories))
        by_value: dict[tuple[str, str], dict[str, float]] = {}
        for c in categories:
            by_value.setdefault((c["feature"], c["value"]), {})[c["label"]] = c["probability"]
        features = list(dict.fromkeys(f for f, _ in by_value))
        head = "".join(f"<th>{_e(_short(label))}</th>" for label in labels)
        tables = []
        for feature in features:
            rows = []
            for (f, value), probs in by_value.items():
                if f != feature:
                    continue
                cells = "".join(
                    _prob_cell(
                        probs.get(label) or 0.0,
                        f"P({feature} = {value} | {label}) = {probs.get(label) or 0.0:.4f}",
                    )
                    for label in labels
                )
                rows.append(f"<tr><td>{_e(value)}</td>{cells}</tr>")
            tables.append(
                f'<div class="box"><h3>{_e(feature)}</h3><table><tr><th>value</th>{head}</tr>'
                f"{''.join(rows)}</table></div>"
            )
        parts.append(
            "<h3 class=next>Categorical features: P(value | class)</h3>"
            f'<div class="row">{"".join(tables)}</div>'
        )
    return f"<section><h2>Features</h2>{''.join(parts)}</section>" if parts else ""


def _p(p: float) -> str:
    """A probability: 3 decimals, or 2 significant digits when that would round to 0."""
    return f"{p:.3f}" if p == 0 or p >= 5e-4 else f"{p:.1e}"


def _misclassified_section(model: Model, wrong: Sequence[dict[str, Any]]) -> str:
    if not wrong:
        return ""
    title = "<h2>The most confidently misclassified documents</h2>"
    if model.kind.source != "tokens":
        rows = "".join(
            f"<tr><td>{_e(d['doc_id'])}</td><td>{_e(d['true_label'])}</td>"
            f'<td class="p">{_p(d["p_true"])}</td><td>{_e(d["predicted"])}</td>'
            f'<td class="p">{_p(d["p_predicted"])}</td></tr>'
            for d in wrong
        )
        return (
            f"<section>{title}<table><tr><th>id</th><th>true</th><th>p</th><th>predicted</th>"
            f"<th>p</th></tr>{rows}</table></section>"
        )
    docs = []
    for doc in wrong:
        head = (
            f"<h3>document {_e(doc['doc_id'])}</h3><p>true <b class=true>"
            f"{_e(doc['true_label'])}</b> p = {_p(doc['p_true'])}<br>predicted <b class=pred>"
            f"{_e(doc['predicted'])}</b> p = {_p(doc['p_predicted'])}</p>"
        )
        plot = (
            diverging_words(doc["words"], doc["predicted"], doc["true_label"])
            if doc["words"]
            else '<p class="note">none of its words is in the vocabulary, or the model never '
            "saw its true label</p>"
        )
        docs.append(f'<div class="box">{head}{plot}</div>')
    if model.kind_name == "bernoulli":
        how = (
            "Bernoulli: a present word adds (log θ − log(1 − θ)) of the predicted class minus "
            "that of the true class to log P(predicted) − log P(true); the absent words and the "
            "prior add the rest."
        )
    else:
        how = (
            "Each word adds count × (log θ<sub>predicted</sub> − log θ<sub>true</sub>) to "
            "log P(predicted) − log P(true)"
            + ("." if model.kind_name == "complement" else "; the prior adds the rest.")
        )
    how += " Orange: the words for the predicted class; blue: for the true one."
    return (
        f'<section>{title}<div class="docs">{"".join(docs)}</div>'
        f'<p class="note">{how}</p></section>'
    )


def _model_section(model: Model, numbers: dict[str, Any]) -> str:
    priors = numbers["priors"]
    classes = {str(c["label"]): c for c in model.classes()}
    rows = "".join(
        f'<tr><td>{_e(label)}</td><td class="p">{classes[label]["n_docs"]:g}</td>'
        f'<td><svg width="120" height="10"><rect width="{120 * p:.1f}" height="10" rx="2" '
        f'fill="#14b8a6"/></svg></td><td class="p">{p:.4f}</td></tr>'
        for label, p in priors.items()
    )
    params = {k: v for k, v in model.params.items() if k != "features"}
    features = model.params.get("features")
    what = "vocabulary (words)" if model.kind.source == "tokens" else "features"
    facts = [
        ("kind", model.kind_name),
        ("training documents", f"{float(model.info.get('n_docs') or 0):g}"),
        ("classes", model.info.get("n_classes")),
        (what, model.info.get("n_features")),
        *((k, json.dumps(v)) for k, v in params.items()),
    ]
    if features:
        facts.append(("feature likelihoods", ", ".join(f"{f} ({k})" for f, k in features)))
    facts += [
        ("trained at", model.info.get("trained_at")),
        ("sqlnb version", model.info.get("version")),
    ]
    table = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in facts)
    prior = "prior" if model.kind.uses_prior else f"prior (not used by {model.kind_name})"
    return (
        '<section><h2>The model</h2><div class="row"><table><tr><th>class</th><th>documents'
        f"</th><th colspan=2>{_e(prior)}</th></tr>{rows}</table><table>{table}</table>"
        "</div></section>"
    )


def _pair(*sections: str) -> str:
    """Sections side by side where they fit, else one under the other."""
    return f'<div class="pair">{"".join(sections)}</div>'


def render_html(model: Model, numbers: dict[str, Any], data_name: str, labels_name: str) -> str:
    """The page, from :func:`report_numbers`."""
    labels = _labels_in_order(numbers)
    counts = {(c["true"], c["predicted"]): int(c["count"]) for c in numbers["confusion"]}
    with_metrics = [label for label in labels if label in numbers["per_class"]]
    cards = "".join(
        [
            _card("accuracy", "accuracy", numbers["accuracy"]),
            _card("macro-F1", "macro_f1", numbers["macro_f1"]),
            _card("log-loss", "log_loss", numbers["log_loss"]),
            _card("Brier score", "brier", numbers["brier"]),
            _card("documents evaluated", "n_docs", numbers["n_docs"]),
        ]
    )
    confusion = f"""<section><h2>Confusion matrix</h2><div class="row">
<div><h3>counts</h3>{heatmap(labels, counts, rows=False)}</div>
<div><h3>share of each true label</h3>{heatmap(labels, counts, rows=True)}</div>
</div><p class="note">Rows are true labels, columns predictions; hover a cell for its numbers.
</p></section>"""
    per_class = f"""<section><h2>Per-class precision, recall and F1</h2>
{class_bars(with_metrics, numbers["per_class"])}
<p class="note">macro-F1 {numbers["macro_f1"]:.4f} is the mean of the F1 column; support is
the number of documents of each true label.</p></section>"""
    calibration = f"""<section><h2>Calibration</h2><div class="row">
{reliability_diagram(numbers["reliability"])}<table>
<tr><th>log-loss</th><td class="p">{numbers["log_loss"]:.4f}</td></tr>
<tr><th>Brier score</th><td class="p">{numbers["brier"]:.4f}</td></tr>
<tr><th>expected calibration error</th><td class="p">{_fmt(numbers["ece"])}</td></tr>
</table></div>
<p class="note">Bars: the share of right predictions among the documents whose predicted class
has that probability (10 bins); dots: the bins' mean probability. The dashed diagonal is perfect
calibration, the hatched gaps the distance to it. Brier score: the mean over documents of
Σ<sub>k</sub> (p<sub>k</sub> − [y = k])².</p></section>"""
    words = _words_section(model)
    payload = json.dumps(numbers, default=str, sort_keys=True)
    for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        payload = payload.replace(char, code)  # nothing in the data can end or escape the script
    title = f"sqlnb report: model {model.name}"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title><style>{CSS}</style></head>
<body><main>
<header><h1>Model <code>{_e(model.name)}</code> · {_e(model.kind_name)}</h1>
<p class="sub">evaluated on <code>{_e(data_name)}</code> with labels <code>{_e(labels_name)}</code>:
{numbers["n_docs"]} documents, {len(labels)} classes</p></header>
<section class="cards">{cards}</section>
{_pair(confusion, per_class)}
{_pair(calibration, words) if len(labels) <= 6 else calibration + words}
{_features_section(model)}
{_misclassified_section(model, numbers["misclassified"])}
{_model_section(model, numbers)}
<footer>Written by sqlnb {_e(__version__)}; every number was computed by SQL in the database.
</footer>
<script type="application/json" id="sqlnb-report">{payload}</script>
</main></body></html>
"""


def _name(source: object) -> str:
    return source if isinstance(source, str) else str(getattr(source, "table", source))


def write_report(
    model: Model, data: str | Source, labels: str | Labels | None, path: Path
) -> dict[str, Any]:
    """Write the HTML report of ``model`` on labeled ``data`` to ``path``; return its numbers."""
    numbers = report_numbers(model, data, labels)
    if labels is None:  # as evaluation: a wide table's own label column, else "labels"
        labels = "labels" if isinstance(data, (str, Tokens)) else data.labels()
    page = render_html(model, numbers, _name(data), _name(labels))
    try:
        Path(path).write_text(page, encoding="utf-8")
    except OSError as error:
        raise SqlnbError(f"cannot write {str(path)!r}: {error.strerror or error}") from None
    return numbers
