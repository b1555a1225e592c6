"""The report's charts as inline SVG: no script, no external reference; every number from the
report's data, every name escaped."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

INK, MUTED, GRID = "#1f2937", "#6b7280", "#e5e7eb"
BLUE, RED = ("#eff6ff", "#1e40af"), ("#fff1f2", "#be123c")
METRIC_COLOURS = {"precision": "#3b82f6", "recall": "#14b8a6", "f1": "#8b5cf6"}
CHAR = 6.6  # the width of a character at 11px, roughly


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def mix(scale: tuple[str, str], t: float) -> str:
    """The colour a fraction ``t`` of the way along a two-colour scale."""
    t = min(max(t, 0.0), 1.0)
    a = [int(scale[0][i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(scale[1][i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


def shorten(text: str, limit: int = 18) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def svg(width: float, height: float, body: Iterable[str], label: str) -> str:
    return (
        f'<svg width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{esc(label)}">'
        + "".join(body)
        + "</svg>"
    )


def text(x: float, y: float, text: str, extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" {extra}>{esc(text)}</text>'


def rect(
    x: float, y: float, w: float, h: float, fill: str, title: str = "", extra: str = ""
) -> str:
    tip = f"<title>{esc(title)}</title>" if title else ""
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" height="{max(h, 0):.1f}" '
        f'fill="{fill}" {extra}>{tip}</rect>'
    )


def rotate(degrees: float, x: float, y: float) -> str:
    return f'transform="rotate({degrees} {x:.1f} {y:.1f})"'


def prob_cell(p: float, title: str) -> str:
    """A table cell holding a probability, shaded by it."""
    colour = "#fff" if p > 0.55 else INK
    return (
        f'<td class="p" style="background:{mix(BLUE, p)};color:{colour}" title="{esc(title)}">'
        f"{p:.2f}</td>"
    )


def fmt(value: float | None, digits: int = 4) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def heatmap(labels: Sequence[str], counts: dict[tuple[str, str], int], *, rows: bool) -> str:
    """The confusion matrix: counts, or with ``rows`` each row divided by its total. Cells shrink
    with the number of classes (column labels turn 45 or 90 degrees when they do not fit); a cell
    shows its number only when it fits; every cell has a hover title. The diagonal is blue,
    errors red."""
    k = max(len(labels), 1)
    cell = max(9.0, min(60.0, 520.0 / k))
    tick = 11 if cell >= 14 else 9
    short = [shorten(label) for label in labels]
    longest = max((len(s) for s in short), default=1) * CHAR * tick / 11
    turn = 0 if all(len(s) * CHAR <= cell - 4 for s in short) else 45 if cell >= 20 else 90
    left = longest + 30
    top = 40 + (longest if turn == 90 else longest * 0.72 if turn else 0)
    middle = top + cell * k / 2
    totals = {t: sum(counts.get((t, p), 0) for p in labels) for t in labels}
    biggest = max(counts.values(), default=1) or 1
    body = [
        text(left + cell * k / 2, 12, "predicted label", 'class="axis" text-anchor="middle"'),
        text(
            12, middle, "true label", f'class="axis" text-anchor="middle" {rotate(-90, 12, middle)}'
        ),
    ]
    font = 13 if cell >= 40 else 10
    for j, label in enumerate(short):
        x = left + (j + 0.5) * cell
        style = f'class="tick" font-size="{tick}"'
        if turn:
            x += tick * 0.35 if turn == 90 else 0
            body.append(text(x, top - 6, label, f"{style} {rotate(-turn, x, top - 6)}"))
        else:
            body.append(text(x, top - 8, label, f'{style} text-anchor="middle"'))
    for i, true in enumerate(labels):
        y = top + i * cell
        body.append(
            text(
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
            fill = mix(BLUE if i == j else RED, value) if n else "#f9fafb"
            title = f"true {true}, predicted {predicted}: {n} ({share:.1%} of {true})"
            body.append(rect(left + j * cell, y, cell - 1, cell - 1, fill, title))
            shown = f"{share:.0%}" if rows else str(n)
            if n and cell >= 16 and len(shown) * font * 0.62 <= cell - 4:
                colour = "#fff" if value > 0.55 else INK
                extra = (
                    f'text-anchor="middle" font-size="{font}" fill="{colour}" pointer-events="none"'
                )
                body.append(text(left + (j + 0.5) * cell, y + cell / 2 + font * 0.35, shown, extra))
    what = "row-normalised" if rows else "counts"
    right = longest * 0.72 + 4 if turn == 45 else 8
    return svg(left + cell * k + right, top + cell * k + 8, body, f"confusion matrix, {what}")


def class_bars(labels: Sequence[str], per_class: dict[str, dict[str, Any]]) -> str:
    """Precision, recall and F1 of every class as bars, with its support."""
    row = 22.0 if len(labels) <= 12 else 16.0
    left = max((len(shorten(x, 24)) for x in labels), default=1) * CHAR + 14
    panel, gap, top = (110.0 if len(labels) <= 6 else 170.0), 12.0, 26.0
    width = left + 3 * (panel + gap) + 50
    body = []
    for m, (metric, colour) in enumerate(METRIC_COLOURS.items()):
        x0 = left + m * (panel + gap)
        body.append(
            text(x0, 14, "F1" if metric == "f1" else metric, f'class="head" fill="{colour}"')
        )
        body.append(
            f'<line x1="{x0:.1f}" y1="{top - 4}" x2="{x0:.1f}" '
            f'y2="{top + row * len(labels):.1f}" stroke="{GRID}"/>'
        )
    body.append(text(width - 6, 14, "support", 'class="head" text-anchor="end"'))
    for i, label in enumerate(labels):
        y = top + i * row
        r = per_class[label]
        if i % 2 == 0:
            body.append(rect(0, y - 2, width, row, "#f9fafb"))
        body.append(
            text(left - 8, y + row * 0.6, shorten(label, 24), 'class="tick" text-anchor="end"')
        )
        for m, (metric, colour) in enumerate(METRIC_COLOURS.items()):
            x0 = left + m * (panel + gap)
            value = float(r[metric])
            w = (panel - 44) * value
            body.append(
                rect(x0, y + 2, w, row - 8, colour, f"{label}: {metric} {value:.4f}", 'rx="2"')
            )
            body.append(text(x0 + w + 4, y + row * 0.6, f"{value:.3f}", 'class="num"'))
        body.append(
            text(width - 6, y + row * 0.6, str(r["support"]), 'class="num" text-anchor="end"')
        )
    return svg(width, top + row * len(labels) + 4, body, "per-class precision, recall and F1")


BINS = 15  # sql/evaluate/reliability.sql's


def reliability_diagram(bins: Sequence[dict[str, Any]], label: str = "reliability diagram") -> str:
    """Observed accuracy against the predicted class's probability, in evaluation's 15
    right-closed bins (bin b holds (b - 1)/15 < p <= b/15, bin 0 p = 0), with a histogram of
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
        body.append(text(left - 6, y + 4, f"{v:.1f}", 'class="tick" text-anchor="end"'))
        body.append(
            text(x, top + size + hist + 30, f"{v:.1f}", 'class="tick" text-anchor="middle"')
        )
    width = size / BINS
    for b in range(BINS + 1):
        x = left + width * (max(b, 1) - 1)
        found = by_bin.get(b)
        if found is None:
            continue
        n, acc, conf = int(found["n_docs"]), float(found["accuracy"]), float(found["confidence"])
        title = (
            f"confidence {(max(b, 1) - 1) / BINS:.3f}–{b / BINS:.3f}: {n} documents, mean "
            "confidence "
            f"{conf:.3f}, accuracy {acc:.3f}"
        )
        body.append(
            rect(
                x + 1,
                top + size * (1 - acc),
                width - 2,
                size * acc,
                "#93c5fd",
                title,
                'stroke="#3b82f6"',
            )
        )
        low, high = sorted((acc, conf))
        gap = 'stroke="#f87171" stroke-width="0.8"'
        body.append(
            rect(
                x + 1,
                top + size * (1 - high),
                width - 2,
                size * (high - low),
                "url(#gap)",
                title,
                gap,
            )
        )
        h = hist * n / most
        body.append(rect(x + 1, top + size + hist + 14 - h, width - 2, h, "#9ca3af", title))
        body.append(
            f'<circle cx="{left + size * conf:.1f}" cy="{top + size * (1 - acc):.1f}" '
            f'r="3.5" fill="{INK}"><title>{esc(title)}</title></circle>'
        )
    body.append(
        f'<line x1="{left}" y1="{top + size}" x2="{left + size}" y2="{top}" '
        f'stroke="{MUTED}" stroke-dasharray="4 4"/>'
    )
    body.append(
        f'<rect x="{left}" y="{top}" width="{size}" height="{size}" fill="none" stroke="{MUTED}"/>'
    )
    body.append(
        text(
            left + size / 2,
            top + size + hist + 46,
            "predicted probability of the predicted class",
            'class="axis" text-anchor="middle"',
        )
    )
    body.append(
        text(
            14,
            top + size / 2,
            "fraction correct",
            f'class="axis" text-anchor="middle" {rotate(-90, 14, top + size / 2)}',
        )
    )
    body.append(text(left + 4, top + size + 26, "documents per bin", 'class="tick"'))
    defs = (
        '<defs><pattern id="gap" width="5" height="5" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)">'
        '<line x1="0" y1="0" x2="0" y2="5" stroke="#f87171" stroke-width="2"/></pattern></defs>'
    )
    return svg(left + size + 12, top + size + hist + 54, [defs, *body], label)


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
        word = f"{shorten(str(w['word']), 18)} ×{w['count']:g}"
        middle = y + row * 0.65
        if right:
            body.append(rect(half, y + 2, size, row - 5, "#fb923c", title, 'rx="2"'))
            body.append(text(half - 6, middle, word, 'class="tick" text-anchor="end"'))
            body.append(text(half + size + 4, middle, value, 'class="num"'))
        else:
            body.append(rect(half - size, y + 2, size, row - 5, "#60a5fa", title, 'rx="2"'))
            body.append(text(half + 6, middle, word, 'class="tick"'))
            body.append(text(half - size - 4, middle, value, 'class="num" text-anchor="end"'))
    bottom = row * len(words) + 2
    body.append(f'<line x1="{half}" y1="0" x2="{half}" y2="{bottom:.1f}" stroke="{MUTED}"/>')
    return svg(2 * half, bottom, body, "words of a misclassified document")


def gaussian_plot(feature: str, rows: Sequence[dict[str, Any]]) -> str:
    """One Gaussian feature: each class's mean ± one standard deviation."""
    sd = [math.sqrt(max(float(r["var"]), 0.0)) for r in rows]
    lo = min(float(r["mean"]) - 2 * s for r, s in zip(rows, sd))
    hi = max(float(r["mean"]) + 2 * s for r, s in zip(rows, sd))
    span = hi - lo or 1.0
    left = max(len(shorten(str(r["label"]), 16)) for r in rows) * CHAR + 12
    width, row = 240.0, 15.0
    body = [text(0, 12, shorten(feature, 40), 'class="head"')]
    for i, (r, s) in enumerate(zip(rows, sd)):
        y = 26 + i * row

        def at(v: float) -> float:
            return left + width * (v - lo) / span

        mean = float(r["mean"])
        title = f"{feature} | {r['label']}: mean {mean:.6g}, variance {float(r['var']):.6g}"
        body.append(
            text(left - 6, y + 4, shorten(str(r["label"]), 16), 'class="tick" text-anchor="end"')
        )
        body.append(
            f'<line x1="{at(mean - s):.1f}" y1="{y:.1f}" x2="{at(mean + s):.1f}" '
            f'y2="{y:.1f}" stroke="#3b82f6" stroke-width="3"><title>{esc(title)}</title></line>'
        )
        body.append(
            f'<circle cx="{at(mean):.1f}" cy="{y:.1f}" r="3.5" fill="{INK}">'
            f"<title>{esc(title)}</title></circle>"
        )
    y = 26 + len(rows) * row
    body.append(
        f'<line x1="{left}" y1="{y - 6:.1f}" x2="{left + width}" y2="{y - 6:.1f}" stroke="{GRID}"/>'
    )
    body.append(text(left, y + 6, f"{lo:.3g}", 'class="tick"'))
    body.append(text(left + width, y + 6, f"{hi:.3g}", 'class="tick" text-anchor="end"'))
    return svg(left + width + 10, y + 10, body, f"Gaussian feature {feature}")
