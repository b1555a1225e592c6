"""The report's drift section (``sqlnb report --time-column C``): the monitor's numbers
(:mod:`sqlnb.monitor`) over time, as inline SVG line charts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlnb.report.charts import GRID, INK, MUTED, esc, svg, text

COLOURS = ("#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#4b5563")


def line_chart(windows: Sequence[str], series: dict[str, list[float | None]], label: str) -> str:
    """One line per series over the windows (in order), from 0 to the largest value; a
    point's title gives its window and value; a missing value breaks the line."""
    width, height, left, top, bottom = 560.0, 220.0, 48.0, 12.0, 40.0
    right = 120.0
    values = [v for vs in series.values() for v in vs if v is not None]
    top_value = max([*values, 1e-12])
    plot_w, plot_h = width - left - right, height - top - bottom
    step = plot_w / max(len(windows) - 1, 1)

    def at(i: int, v: float) -> tuple[float, float]:
        return left + i * step, top + plot_h * (1 - v / top_value)

    body = [
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" '
        f'stroke="{GRID}"/>',
        text(left - 6, top + 8, f"{top_value:.3g}", f'text-anchor="end" fill="{MUTED}"'),
        text(left - 6, top + plot_h, "0", f'text-anchor="end" fill="{MUTED}"'),
    ]
    for i, window in enumerate(windows):
        if len(windows) <= 12 or i % max(len(windows) // 12, 1) == 0:
            x = left + i * step
            body.append(
                text(x, height - bottom + 16, window[:10], f'text-anchor="middle" fill="{MUTED}"')
            )
    for n, (name, vs) in enumerate(series.items()):
        colour = COLOURS[n % len(COLOURS)]
        runs: list[list[tuple[float, float]]] = [[]]
        for i, v in enumerate(vs):
            if v is None:
                runs.append([])
                continue
            runs[-1].append(at(i, v))
            x, y = at(i, v)
            body.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{colour}">'
                f"<title>{esc(name)}, {esc(windows[i])}: {v:.6g}</title></circle>"
            )
        for run in runs:
            if len(run) > 1:
                points = " ".join(f"{x:.1f},{y:.1f}" for x, y in run)
                body.append(f'<polyline points="{points}" fill="none" stroke="{colour}"/>')
        body.append(text(left + plot_w + 10, top + 14 + 16 * n, name, f'fill="{colour}"'))
    return svg(width, height, body, label)


def section(rows: Sequence[dict[str, Any]]) -> str:
    """The drift section: unknown rate and divergence per window; per class, the share
    predicted, the prior estimated on the window and the training prior."""
    windows = list(dict.fromkeys(str(r["window"]) for r in rows))
    first = {str(r["window"]): r for r in reversed(rows)}
    drift = line_chart(
        windows,
        {
            "unknown_rate": [first[w]["unknown_rate"] for w in windows],
            "js_divergence": [first[w]["js_divergence"] for w in windows],
        },
        "unknown rate and Jensen-Shannon divergence per window",
    )
    labels = list(dict.fromkeys(str(r["label"]) for r in rows))
    by = {(str(r["window"]), str(r["label"])): r for r in rows}
    series: dict[str, list[float | None]] = {}
    for label in labels:
        series[f"{label} predicted"] = [by[(w, label)]["predicted_share"] for w in windows]
        series[f"{label} estimated"] = [by[(w, label)]["estimated_prior"] for w in windows]
    shares = line_chart(windows, series, "predicted share and estimated prior per class")
    priors = ", ".join(f"{esc(k)} {by[(windows[0], k)]['training_prior']:.4f}" for k in labels)
    return f"""<section><h2>Drift over time</h2><div class="row">
<div><h3>unknown words and divergence</h3>{drift}</div>
<div><h3>labels: predicted share and estimated prior</h3>{shares}</div></div>
<p class="note" style="color:{INK}">Per window: the share of tokens whose word the model never
saw, and the Jensen-Shannon divergence (log base 2) between the training words and the
window's; per class, the share of documents predicted so and the prior Saerens et al.'s EM
estimates on the window (training priors: {priors}). The numbers are those of
<code>sqlnb monitor</code> with the same options.</p></section>"""
