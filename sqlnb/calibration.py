"""Calibration of a trained model's probabilities on held-out labeled documents.

Naive Bayes ranks well but its probabilities pile up near 0 and 1. ``sqlnb calibrate`` fits,
on labeled documents the model was not trained on, one of:

- ``temperature``: the single T > 0 minimising the log-loss of softmax(jll / T), by Newton's
  method on 1/T (the log-loss is convex in it), each step one aggregate query over the
  documents' scores (``sql/calibrate/temperature.sql``); labels never change;
- ``sigmoid``: Platt's p -> 1 / (1 + exp(a p + b)) per class, one-vs-rest, on each class's
  posterior (two classes: the second class only), with scikit-learn's targets, by Newton's
  method per class, each step one aggregate (``sql/calibrate/sigmoid.sql``);
- ``isotonic``: the weighted pool-adjacent-violators fit of each class's outcome on its
  posterior, as scikit-learn's IsotonicRegression(out_of_bounds="clip"), over the distinct
  (class, probability) points the database groups (``sql/calibrate/points.sql``).

The fit is stored in ``sqlnb_calibration`` (see ``sql/catalog/create_calibration.sql``) and the
prediction pipeline applies it (:mod:`sqlnb.pipeline`), as CalibratedClassifierCV with a frozen
estimator does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlglot import exp

from sqlnb import catalog, multilabel, pipeline, settings, templates
from sqlnb.catalog import CALIBRATION, Entry
from sqlnb.engine import Database, scratch
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Labels, Source, as_source, labels_for

METHODS = settings.METHOD.choices  # what it stores (CALIBRATION's choices), and none
SCORES = scratch.name("sqlnb_calibrating")
WHOLE = (-1.0, 2.0)  # (lo, hi) of a row that covers every probability
MAX_STEPS = 200
MAX_BETA = 1e9  # the largest inverse temperature (documents that T -> 0 would separate)


@dataclass(frozen=True)
class Calibration:
    """A fitted calibration: its method, its rows (class_id, lo, hi, a, b) and the number of
    documents it was fitted on (method ``none``: no rows, the model uncalibrated)."""

    method: str
    rows: list[tuple[int, float, float, float, float]]
    n_docs: int = 0

    @property
    def detail(self) -> str:
        """What the command line says of it after the method's name: a temperature's T."""
        return f" (T = {self.rows[0][3]:.6g})" if self.method == "temperature" else ""

    def statements(self, model: str) -> list[exp.Expr]:
        """Replace the model's calibration with this one."""
        statements = catalog.deletes(model, [CALIBRATION])
        rows: exp.Query | None = None
        for class_id, *numbers in self.rows:
            one = exp.select(
                exp.convert(model).as_("model"),
                exp.convert(self.method).as_("method"),
                exp.convert(class_id).as_("class_id"),
                *(templates.number(v).as_(n) for n, v in zip(CALIBRATION.columns[2:], numbers)),
            )
            rows = one if rows is None else exp.union(rows, one, distinct=False)
        if rows is not None:
            statements.append(
                exp.insert(rows, CALIBRATION.node(), columns=["model", *CALIBRATION.columns])
            )
        return statements


def flaw(method: str, rows: Sequence[tuple[int, float, float, float, float]]) -> str | None:
    """The first way stored rows (class_id, lo, hi, a, b) of a calibration by ``method`` (one
    of :data:`METHODS`, the rows finite: sqlnb_calibration's own rules) differ from what
    :func:`fit` writes, in words, or None: temperature, one row per class, the same T with
    1/T in (0, MAX_BETA]; sigmoid, one row per class; both over :data:`WHOLE`; isotonic,
    per class pieces that tile -1..2, values in [0, 1], never decreasing, constant outside
    the first and last threshold.

    >>> flaw("temperature", [(0, -1.0, 2.0, 0.0, 0.0)])
    'temperature T = 0 of class 0 (sqlnb writes a T > 0)'
    """
    pieces: dict[int, list[tuple[float, float, float, float]]] = {}
    for class_id, *numbers in sorted(rows):
        pieces.setdefault(class_id, []).append((numbers[0], numbers[1], numbers[2], numbers[3]))
    temperatures = {a for one in pieces.values() for _, _, a, _ in one}
    for k, one in pieces.items():
        if method != "isotonic":
            if len(one) != 1 or one[0][:2] != WHOLE:
                return f"{method} rows of class {k} that are not one row over (-1, 2)"
            lo, hi, a, b = one[0]
            if method == "temperature" and not (a >= 1 / MAX_BETA and b == 0):
                return f"temperature T = {a:g} of class {k} (sqlnb writes a T > 0)"
            if method == "temperature" and len(temperatures) > 1:
                return f"temperatures {sorted(temperatures)} (sqlnb writes one T for every class)"
            continue
        if one[0][0] != WHOLE[0] or one[-1][1] != WHOLE[1]:
            return f"isotonic pieces of class {k} that do not cover -1 to 2"
        if one[0][3] != 0 or one[-1][3] != 0:
            return f"isotonic pieces of class {k} that are not constant outside the thresholds"
        reached = 0.0
        for i, (lo, hi, a, b) in enumerate(one):
            if not lo < hi or (i and lo != one[i - 1][1]):
                return f"isotonic bounds lo = {lo:g}, hi = {hi:g} of class {k} (they must tile)"
            end = a + b * (hi - lo)
            if not (0 <= a <= 1 and b >= 0 and end <= 1 + 1e-9 and a >= reached - 1e-9):
                return (
                    f"an isotonic piece a = {a:g}, b = {b:g} of class {k} that is not a "
                    "non-decreasing probability"
                )
            reached = end
    return None


def fit(
    db: Database,
    entry: Entry,
    data: str | Source,
    labels: str | Labels | None,
    method: str,
) -> Calibration:
    """Fit a calibration of model ``entry`` on the labeled documents of ``data`` (reads only,
    but for a temporary table)."""
    if method not in METHODS:
        raise settings.METHOD.refuse(method, "")
    multilabel.refuse(entry, "calibration")
    if method == "none":
        return Calibration("none", [])
    if entry.n_classes < 2:
        raise SqlnbError(f"model {entry.name!r} has one class: there is nothing to calibrate")
    source = as_source(data)
    evaluated = pipeline.evaluation_pipeline(
        db, entry, source, labels, calibrate=False, purpose="calibrate on"
    )
    truth = dict(evaluated.ctes)[pipeline.TRUTH]
    unknown = db.fetch(
        templates.render("calibrate/unknown.sql", truth=truth.subquery("t"), model=entry.name)
    )[0][0]
    if unknown is not None:
        name = labels_for(source, labels).name
        raise SqlnbError(
            f"labels table {name!r} has label {unknown!r}, which model {entry.name!r} does not "
            "know: calibrate on documents of the model's classes"
        )
    if not db.fetch(evaluated.with_input())[0][0]:
        name = labels_for(source, labels).name
        raise SqlnbError(
            f"no labeled document of {name!r} has anything to score (no token or row in the "
            "calibration data): an empty calibration set"
        )
    final = templates.select(
        "calibrate/scores.sql",
        posterior=exp.to_table(pipeline.POSTERIOR),
        truth=exp.to_table(pipeline.TRUTH),
        model=entry.name,
    )
    db.stage("scoring")
    scores = db.temporary(SCORES, evaluated.select(final))
    try:
        db.stage("fitting")
        counts = db.fetch_dicts(templates.render("calibrate/counts.sql", scores=scores))
        if not counts or not sum(int(c["positives"]) for c in counts):
            name = labels_for(source, labels).name
            raise SqlnbError(f"no labeled document to calibrate on in {name!r}")
        n_docs = int(_temperature_step(db, scores, 1.0)["n_docs"])
        if method == "temperature":
            t = 1.0 / _temperature(db, scores)
            rows = [(int(c["class_id"]), *WHOLE, t, 0.0) for c in counts]
        else:
            calibrated = [int(c["class_id"]) for c in counts]
            if len(calibrated) == 2:  # the second class only, as scikit-learn
                calibrated = calibrated[1:]
            if method == "sigmoid":
                rows = _sigmoid(db, scores, [c for c in counts if c["class_id"] in calibrated])
            else:
                rows = _isotonic(db, scores, calibrated)
    finally:
        db.drop_temporary(scores)
    return Calibration(method, rows, n_docs)


def _temperature_step(db: Database, scores: exp.Table, beta: float) -> dict[str, Any]:
    query = templates.render(
        "calibrate/temperature.sql", scores=scores, beta=templates.number(beta)
    )
    return db.fetch_dicts(query)[0]


def _temperature(db: Database, scores: exp.Table) -> float:
    """The inverse temperature of least log-loss: Newton's method, halving a step that would
    leave beta > 0 or raise the loss."""
    beta = 1.0
    step = _temperature_step(db, scores, beta)
    for _ in range(MAX_STEPS):
        grad, hess = float(step["grad"] or 0), float(step["hess"] or 0)
        if hess <= 0 or abs(grad) <= 1e-12 * max(1, int(step["n_docs"])):
            break
        delta = grad / hess
        while True:
            candidate = beta - delta
            if candidate > MAX_BETA:  # the documents are separated: T tends to 0
                return MAX_BETA
            if candidate > 0:
                trial = _temperature_step(db, scores, candidate)
                if float(trial["loss"]) <= float(step["loss"]) + 1e-12 * abs(float(step["loss"])):
                    break
            delta /= 2
            if abs(delta) < 1e-15 * beta:
                return beta
        done = abs(candidate - beta) <= 1e-13 * beta
        beta, step = candidate, trial
        if done:
            break
    return beta


def _sigmoid(
    db: Database, scores: exp.Table, counts: Sequence[dict[str, Any]]
) -> list[tuple[int, float, float, float, float]]:
    """Platt's (a, b) of each class of ``counts``, by Newton's method with halving steps."""
    classes = [int(c["class_id"]) for c in counts]
    target: dict[int, tuple[float, float]] = {}
    ab: dict[int, tuple[float, float]] = {}
    for c in counts:
        pos, neg = float(c["positives"]), float(c["negatives"])
        target[int(c["class_id"])] = ((pos + 1) / (pos + 2), 1 / (neg + 2))
        ab[int(c["class_id"])] = (0.0, math.log((neg + 1) / (pos + 1)))

    def by_class(values: dict[int, float]) -> exp.Expr:
        return exp.Case(
            ifs=[
                exp.If(
                    this=templates.col("class_id", "c").eq(exp.convert(k)),
                    true=templates.number(v),
                )
                for k, v in values.items()
            ]
        )

    def step(params: dict[int, tuple[float, float]]) -> dict[int, dict[str, Any]]:
        is_positive = templates.col("y", "c").eq(exp.convert(1))
        t = exp.Case(
            ifs=[
                exp.If(
                    this=exp.and_(
                        templates.col("class_id", "c").eq(exp.convert(k)), is_positive.copy()
                    ),
                    true=templates.number(v[0]),
                )
                for k, v in target.items()
            ],
            default=by_class({k: v[1] for k, v in target.items()}),
        )
        query = templates.render(
            "calibrate/sigmoid.sql",
            scores=scores,
            target=t,
            a=by_class({k: v[0] for k, v in params.items()}),
            b=by_class({k: v[1] for k, v in params.items()}),
            kept=templates.col("class_id", "c").isin(*(exp.convert(k) for k in params)),
        )
        return {int(r["class_id"]): r for r in db.fetch_dicts(query)}

    active = dict(ab)
    current = step(active)
    for _ in range(MAX_STEPS):
        if not active:
            break
        moves: dict[int, tuple[float, float]] = {}
        for k in active:
            r = current[k]
            ga, gb = float(r["grad_a"]), float(r["grad_b"])
            haa, hab, hbb = float(r["h_aa"]), float(r["h_ab"]), float(r["h_bb"])
            det = haa * hbb - hab * hab
            if det <= 0:
                moves[k] = (0.0, gb / hbb if hbb > 0 else 0.0)
            else:
                moves[k] = ((hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det)
        # loss is convex in (a, b): halve a class's step until its loss does not rise
        scale = {k: 1.0 for k in active}
        while True:
            trial_params = {
                k: (ab[k][0] - scale[k] * moves[k][0], ab[k][1] - scale[k] * moves[k][1])
                for k in active
            }
            trial = step(trial_params)
            worse = [
                k
                for k in active
                if float(trial[k]["loss"]) > float(current[k]["loss"]) * (1 + 1e-15) + 1e-300
                and scale[k] > 1e-10
            ]
            if not worse:
                break
            for k in worse:
                scale[k] /= 2
        done = []
        for k in active:
            new = trial_params[k]
            if max(abs(new[0] - ab[k][0]), abs(new[1] - ab[k][1])) <= 1e-12 * (
                1 + abs(new[0]) + abs(new[1])
            ):
                done.append(k)
            ab[k] = new
            current[k] = trial[k]
        active = {k: ab[k] for k in active if k not in done}
    return [(k, *WHOLE, ab[k][0], ab[k][1]) for k in classes]


def _isotonic(
    db: Database, scores: exp.Table, classes: list[int]
) -> list[tuple[int, float, float, float, float]]:
    """Per class, the isotonic fit's pieces (lo, hi, a, b): a + b (p - lo) on lo <= p < hi,
    constant below the first and above the last threshold (scikit-learn's clip)."""
    query = templates.render(
        "calibrate/points.sql",
        scores=scores,
        kept=templates.col("class_id", "c").isin(*(exp.convert(k) for k in classes)),
    )
    points: dict[int, list[tuple[float, float, float]]] = {k: [] for k in classes}
    for r in db.fetch_dicts(query):
        points[int(r["class_id"])].append((float(r["proba"]), float(r["n"]), float(r["positives"])))
    rows: list[tuple[int, float, float, float, float]] = []
    for k in classes:
        xs, ys = thresholds(points[k])
        lo = WHOLE[0]
        rows.append((k, lo, xs[0], ys[0], 0.0))
        for i in range(len(xs) - 1):
            slope = (ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i])
            rows.append((k, xs[i], xs[i + 1], ys[i], slope))
        rows.append((k, xs[-1], WHOLE[1], ys[-1], 0.0))
    return rows


def thresholds(points: Sequence[tuple[float, float, float]]) -> tuple[list[float], list[float]]:
    """scikit-learn's IsotonicRegression (increasing) of 0/1 outcomes on x, from the sorted
    distinct (x, documents, positives): x within float64 resolution of a group's first merged
    (``_make_unique``), weighted pool-adjacent-violators, and the points that only repeat
    their neighbours' value dropped. Returns the thresholds (x, y).

    >>> thresholds([(0.1, 1, 0), (0.2, 1, 1), (0.3, 1, 0), (0.9, 2, 2)])
    ([0.1, 0.2, 0.3, 0.9], [0.0, 0.5, 0.5, 1.0])
    """
    resolution = 1e-15  # numpy.finfo(float64).resolution
    xs: list[float] = []
    ws: list[float] = []
    sums: list[float] = []
    for x, n, positives in points:
        if xs and x - xs[-1] < resolution:
            ws[-1] += n
            sums[-1] += positives
        else:
            xs.append(x)
            ws.append(n)
            sums.append(positives)
    # pool adjacent violators over blocks (mean, weight, length)
    blocks: list[list[float]] = []
    for w, s in zip(ws, sums):
        blocks.append([s / w, w, 1])
        while len(blocks) > 1 and blocks[-2][0] >= blocks[-1][0]:
            mean, weight, length = blocks.pop()
            prev = blocks[-1]
            total = prev[1] + weight
            prev[0] = (prev[0] * prev[1] + mean * weight) / total
            prev[1] = total
            prev[2] += length
    ys = [b[0] for b in blocks for _ in range(int(b[2]))]
    keep = [
        i == 0 or i == len(ys) - 1 or ys[i] != ys[i - 1] or ys[i] != ys[i + 1]
        for i in range(len(ys))
    ]
    return [x for x, k in zip(xs, keep) if k], [y for y, k in zip(ys, keep) if k]


def described(rows: list[dict[str, Any]]) -> str:
    """A model's calibration (its rows, :meth:`sqlnb.model.Model.calibration`) in one line."""
    method = rows[0]["method"]
    if method == "temperature":
        return f"calibrated by temperature: T = {rows[0]['a']:.6g}"
    if method == "sigmoid":
        parts = [f"{r['label']}: a = {r['a']:.6g}, b = {r['b']:.6g}" for r in rows]
        return "calibrated by sigmoid, 1 / (1 + exp(a p + b)): " + "; ".join(parts)
    pieces: dict[str, int] = {}
    for r in rows:
        pieces[str(r["label"])] = pieces.get(str(r["label"]), 0) + 1
    shown = ", ".join(f"{label}: {n - 1} thresholds" for label, n in pieces.items())
    return f"calibrated by isotonic regression: {shown}"
