"""The report's HTML page: sections drawn from the report's numbers, one ``<style>`` block, the
numbers embedded as JSON; nothing loaded from anywhere."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sqlnb.kinds import presentation
from sqlnb.kinds.base import Frequencies, Normal, Ranked, Rows, Section
from sqlnb.kinds.params import uses_prior
from sqlnb.kinds.presentation import word_note
from sqlnb.report.charts import (
    class_bars,
    diverging_words,
    esc,
    fmt,
    gaussian_plot,
    heatmap,
    prob_cell,
    reliability_diagram,
    shorten,
)
from sqlnb.report.drift import section as drift_section
from sqlnb.version import __version__

if TYPE_CHECKING:
    from sqlnb.model import Model

N_TOP_WORDS = 10

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
        f'<div class="card" data-metric="{key}" data-value="{esc(repr(value))}">'
        f"<b>{esc(shown)}</b><span>{esc(name)}</span></div>"
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


def _heading(title: str) -> str:
    """A section's title as a heading: its first letter upper case."""
    return title[:1].upper() + title[1:]


def _ranked(section: Ranked) -> str:
    by_class: dict[str, list[dict[str, Any]]] = {}
    for w in section.rows:
        by_class.setdefault(w["label"], []).append(w)
    boxes = []
    for label, ws in by_class.items():
        top = max((float(w["score"]) for w in ws), default=0.0)
        items = "".join(
            f'<li title="score {float(w["score"]):.4g}, θ = {math.exp(w["log_theta"]):.3g}">'
            f"<span>{esc(w[section.item])}</span>"
            f'<i style="width:{_share(w["score"], top):.0f}%"></i></li>'
            for w in ws
        )
        boxes.append(f'<div class="box"><h3>{esc(label)}</h3><ol class="words">{items}</ol></div>')
    return (
        f'<section class="fill"><h2>{esc(_heading(section.title))}</h2>'
        f'<div class="grid">{"".join(boxes)}</div><p class="note">Ranked by log θ<sub>kw</sub>'
        " − log(mean θ of the word in the other classes): how many times likelier the word is "
        "in the class, as <code>sqlnb show</code>; bars relative to each class's top word.</p>"
        "</section>"
        if boxes
        else ""
    )


def _normal(section: Normal) -> str:
    by_feature: dict[str, list[dict[str, Any]]] = {}
    for g in section.rows:
        by_feature.setdefault(g["feature"], []).append(g)
    plots = "".join(
        f'<div class="box">{gaussian_plot(f, rows)}</div>' for f, rows in by_feature.items()
    )
    return (
        f"<h3>{esc(_heading(section.title))}: mean ± one standard deviation per class</h3>"
        f'<div class="row">{plots}</div>'
    )


def _frequencies(section: Frequencies) -> str:
    labels = list(dict.fromkeys(c["label"] for c in section.rows))
    by_value: dict[tuple[str, str], dict[str, float]] = {}
    for c in section.rows:
        by_value.setdefault((c["feature"], c["value"]), {})[c["label"]] = c["probability"]
    features = list(dict.fromkeys(f for f, _ in by_value))
    head = "".join(f"<th>{esc(shorten(label))}</th>" for label in labels)
    tables = []
    for feature in features:
        rows = []
        for (f, value), probs in by_value.items():
            if f != feature:
                continue
            cells = "".join(
                prob_cell(
                    probs.get(label) or 0.0,
                    f"P({feature} = {value} | {label}) = {probs.get(label) or 0.0:.4f}",
                )
                for label in labels
            )
            rows.append(f"<tr><td>{esc(value)}</td>{cells}</tr>")
        tables.append(
            f'<div class="box"><h3>{esc(feature)}</h3><table><tr><th>value</th>{head}</tr>'
            f"{''.join(rows)}</table></div>"
        )
    return (
        f"<h3 class=next>{esc(_heading(section.title))}: P(value | class)</h3>"
        f'<div class="row">{"".join(tables)}</div>'
    )


# How the report draws each form of section (sqlnb.kinds.base.Section) in its Features part;
# a Ranked section is a part of its own.
FEATURES: dict[type[Section], Callable[[Any], str]] = {Normal: _normal, Frequencies: _frequencies}


def _features_section(sections: list[Section]) -> str:
    parts = [FEATURES[type(s)](s) for s in sections if s.rows and type(s) in FEATURES]
    return f"<section><h2>Features</h2>{''.join(parts)}</section>" if parts else ""


def _rows_sections(sections: list[Section]) -> str:
    """Each Rows section (say EM's iterations) as a table of its own; a Note (the
    calibration, which the report shows measured) is left to the calibration part."""
    parts = []
    for s in sections:
        if isinstance(s, Rows) and s.rows:
            head = "".join(f"<th>{esc(str(k))}</th>" for k in s.rows[0])
            body = "".join(
                "<tr>"
                + "".join(f'<td class="p">{esc(_cell(v))}</td>' for v in r.values())
                + "</tr>"
                for r in s.rows
            )
            parts.append(
                f"<section><h2>{esc(s.title)}</h2><table><tr>{head}</tr>{body}</table></section>"
            )
    return "".join(parts)


def _cell(value: Any) -> str:
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def _p(p: float) -> str:
    """A probability: 3 decimals, or 2 significant digits when that would round to 0."""
    return f"{p:.3f}" if p == 0 or p >= 5e-4 else f"{p:.1e}"


def _misclassified_section(model: Model, wrong: Sequence[dict[str, Any]]) -> str:
    if not wrong:
        return ""
    title = "<h2>The most confidently misclassified documents</h2>"
    if word_note(model.kind) is None:
        rows = "".join(
            f"<tr><td>{esc(d['doc_id'])}</td><td>{esc(d['true_label'])}</td>"
            f'<td class="p">{_p(d["p_true"])}</td><td>{esc(d["predicted"])}</td>'
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
            f"<h3>document {esc(doc['doc_id'])}</h3><p>true <b class=true>"
            f"{esc(doc['true_label'])}</b> p = {_p(doc['p_true'])}<br>predicted <b class=pred>"
            f"{esc(doc['predicted'])}</b> p = {_p(doc['p_predicted'])}</p>"
        )
        plot = (
            diverging_words(doc["words"], doc["predicted"], doc["true_label"])
            if doc["words"]
            else '<p class="note">none of its words is in the vocabulary, or the model never '
            "saw its true label</p>"
        )
        docs.append(f'<div class="box">{head}{plot}</div>')
    colours = "Orange: the words for the predicted class; blue: for the true one."
    how = f"{word_note(model.kind)} {colours}"
    return (
        f'<section>{title}<div class="docs">{"".join(docs)}</div>'
        f'<p class="note">{how}</p></section>'
    )


def _model_section(model: Model, numbers: dict[str, Any]) -> str:
    priors = numbers["priors"]
    classes = {str(c["label"]): c for c in model.classes()}
    rows = "".join(
        f'<tr><td>{esc(label)}</td><td class="p">{classes[label]["n_docs"]:g}</td>'
        f'<td><svg width="120" height="10"><rect width="{120 * p:.1f}" height="10" rx="2" '
        f'fill="#14b8a6"/></svg></td><td class="p">{p:.4f}</td></tr>'
        for label, p in priors.items()
    )
    params = {k: v for k, v in model.params.items() if k != "features"}
    features = model.params.get("features")
    what = presentation.size(model.kind)
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
    table = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in facts)
    prior = "prior" if uses_prior(model.kind) else f"prior (not used by {model.kind_name})"
    return (
        '<section><h2>The model</h2><div class="row"><table><tr><th>class</th><th>documents'
        f"</th><th colspan=2>{esc(prior)}</th></tr>{rows}</table><table>{table}</table>"
        "</div></section>"
    )


def _pair(*sections: str) -> str:
    """Sections side by side where they fit, else one under the other."""
    return f'<div class="pair">{"".join(sections)}</div>'


def _calibration(numbers: dict[str, Any]) -> str:
    """The calibration section: the reliability diagram and the measures, and where the model
    is calibrated the same of its own (uncalibrated) probabilities beside them."""
    shown = [("", numbers)]
    if numbers.get("uncalibrated"):
        method = numbers["calibration"]
        shown = [("before calibration", numbers["uncalibrated"]), (f"after ({method})", numbers)]
    parts = []
    for title, n in shown:
        heading = f"<h3>{esc(title)}</h3>" if title else ""
        label = f"reliability diagram {title}".strip()
        parts.append(
            f"""<div>{heading}{reliability_diagram(n["reliability"], label)}<table>
<tr><th>log-loss</th><td class="p">{n["log_loss"]:.4f}</td></tr>
<tr><th>Brier score</th><td class="p">{n["brier"]:.4f}</td></tr>
<tr><th>expected calibration error</th><td class="p">{fmt(n["ece"])}</td></tr>
</table></div>"""
        )
    return f"""<section><h2>Calibration</h2><div class="row">{"".join(parts)}</div>
<p class="note">Bars: the share of right predictions among the documents whose predicted class
has that probability (15 bins, each (b − 1)/15 &lt; p ≤ b/15); dots: the bins' mean probability.
The dashed diagonal is perfect calibration, the hatched gaps the distance to it. Expected
calibration error: Σ<sub>bins</sub> |B|/n · |accuracy(B) − confidence(B)|. Brier score: the
mean over documents of Σ<sub>k</sub> (p<sub>k</sub> − [y = k])².</p></section>"""


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
            _card("calibration error", "ece", numbers["ece"]),
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
    calibration = _calibration(numbers)
    described = model.describe(N_TOP_WORDS)
    words = "".join(_ranked(s) for s in described if isinstance(s, Ranked))
    payload = json.dumps(numbers, default=str, sort_keys=True)
    for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        payload = payload.replace(char, code)  # nothing in the data can end or escape the script
    title = f"sqlnb report: model {model.name}"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title><style>{CSS}</style></head>
<body><main>
<header><h1>Model <code>{esc(model.name)}</code> · {esc(model.kind_name)}</h1>
<p class="sub">evaluated on <code>{esc(data_name)}</code> with labels
<code>{esc(labels_name)}</code>: {numbers["n_docs"]} documents, {len(labels)} classes</p></header>
<section class="cards">{cards}</section>
{_pair(confusion, per_class)}
{_pair(calibration, words) if len(labels) <= 6 else calibration + words}
{_features_section(described)}
{_rows_sections(described)}
{drift_section(numbers["drift"]) if numbers.get("drift") else ""}
{_misclassified_section(model, numbers["misclassified"])}
{_model_section(model, numbers)}
<footer>Written by sqlnb {esc(__version__)}; every number was computed by SQL in the database.
</footer>
<script type="application/json" id="sqlnb-report">{payload}</script>
</main></body></html>
"""
