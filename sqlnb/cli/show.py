"""The commands that read and show: evaluate's and tune's results, show, models, explain,
weights, report."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from sqlnb import catalog, settings
from sqlnb.cli.console import display, echo, fail, opened, table
from sqlnb.cli.options import (
    LABELED,
    SOURCE,
    TOKENIZER,
    TRUTH,
    DbArg,
    ModelOpt,
    ReplaceOpt,
    TokenizerOptions,
    uses,
)
from sqlnb.cli.production import EveryOpt, TimeOpt
from sqlnb.cli.registry import command
from sqlnb.inputs import Labels, Source
from sqlnb.kinds.base import Frequencies, Normal, Note, Ranked, Rows, Section
from sqlnb.model import load

if TYPE_CHECKING:
    from sqlnb.demo import Demo


def print_evaluation(model_name: str, result: dict[str, Any], *, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        return
    if result.get("multi_label"):
        print_multilabel(model_name, result)
        return
    echo(
        f"model {model_name!r} on {result['n_docs']} documents: accuracy "
        f"{result['accuracy']:.4f}, macro-F1 {result['macro_f1']:.4f}, "
        f"log-loss {result['log_loss']:.4f}, Brier {result['brier']:.4f}, "
        f"ECE {result['ece']:.4f}"
    )
    for d in result.get("depth_accuracy", ()):  # labels that form a tree
        echo(f"  accuracy at depth {d['depth']}: {d['accuracy']:.4f} ({d['n_docs']} documents)")
    per_class = table("label", "precision", "recall", "F1", "support")
    for label, r in result["per_class"].items():
        per_class.add_row(
            label,
            f"{r['precision']:.4f}",
            f"{r['recall']:.4f}",
            f"{r['f1']:.4f}",
            str(r["support"]),
        )
    display(per_class)
    labels_seen = list(result["per_class"])
    counts = {(c["true"], c["predicted"]): c["count"] for c in result["confusion"]}
    matrix = table("true \\ predicted", *labels_seen, title="confusion matrix")
    for t in labels_seen:
        matrix.add_row(t, *(str(counts.get((t, p), 0)) for p in labels_seen))
    display(matrix)


def print_multilabel(model_name: str, result: dict[str, Any]) -> None:
    """A multi-label model's evaluation (sqlnb.multilabel.metrics): its five metrics, then per
    label precision, recall, F1 (with a bar) and support."""
    echo(
        f"model {model_name!r} on {result['n_docs']} documents (threshold "
        f"{result['threshold']:g}): micro-F1 {result['micro_f1']:.4f}, macro-F1 "
        f"{result['macro_f1']:.4f}, samples-F1 {result['samples_f1']:.4f}, Hamming loss "
        f"{result['hamming_loss']:.4f}, subset accuracy {result['subset_accuracy']:.4f}"
    )
    per_label = table("label", "precision", "recall", "F1", "", "support")
    for label, r in result["per_label"].items():
        bar = "#" * round(20 * float(r["f1"]))
        f1, support = f"{r['f1']:.4f}", str(r["support"])
        per_label.add_row(label, f"{r['precision']:.4f}", f"{r['recall']:.4f}", f1, bar, support)
    display(per_label)


def print_demo(demo: Demo) -> None:
    """What ``sqlnb demo`` did, as it tells it."""
    info, result = demo.info, demo.evaluation
    display(
        f"[bold]sqlnb demo[/bold] in {demo.path}: {demo.n_train} training and {demo.n_test} "
        "test fine-food reviews (labels: great, other)"
    )
    display(
        f"trained multinomial model 'reviews' from raw text, tokenized in SQL (English stop "
        f"words removed): {int(info['n_docs'])} documents, vocabulary of "
        f"{info['n_features']} words"
    )
    display(
        f"test split: accuracy {result['accuracy']:.4f}, macro-F1 "
        f"{result['macro_f1']:.4f}, log-loss {result['log_loss']:.4f}; {demo.reference}"
    )
    title = "classified with plain SQL: " + demo.query.split(" FROM")[0]
    classified = table("sentence", "label", "probability", title=title)
    for text, label, p in demo.classified:
        classified.add_row(text, label, f"{p:.3f}")
    display(classified)
    words = table("label", "most indicative words", title="what the model learned")
    for label, ws in demo.top_words.items():
        words.add_row(label, ", ".join(ws))
    display(words)
    display(
        "tables: reviews, train_docs, test_docs, test_predictions, sentences; the model: "
        "sqlnb_models, sqlnb_classes, sqlnb_word_counts, sqlnb_prior, sqlnb_log_theta, "
        "sqlnb_scoring; macros: sqlnb_classify, sqlnb_proba, sqlnb_predict"
    )
    display(f"done in {demo.seconds:.1f} s. Try: sqlnb show {demo.path} --model reviews")


def print_tuning(result: dict[str, Any], folds: int, *, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        return
    shown = table("alpha", "accuracy", "log-loss", title=f"{folds}-fold cross-validation")
    for r in result["results"]:
        best = " (best)" if r["alpha"] == result["best_alpha"] else ""
        shown.add_row(f"{r['alpha']:g}{best}", f"{r['accuracy']:.4f}", f"{r['log_loss']:.4f}")
    display(shown)


def brief(params: dict[str, Any]) -> str:
    """Hyperparameters as JSON, a stop-word list shown by its name or its length."""
    from sqlnb.stop_words import ENGLISH

    tokenizer = params.get("tokenizer")
    if isinstance(tokenizer, dict) and tokenizer.get("stop_words"):
        words = tokenizer["stop_words"]
        named = "english" if tuple(words) == ENGLISH else f"{len(words)} words"
        params = {**params, "tokenizer": {**tokenizer, "stop_words": named}}
    if isinstance(params.get("em"), dict):  # its iterations: show prints them as a table
        params = {**params, "em": {k: v for k, v in params["em"].items() if k != "history"}}
    return json.dumps(params)


def _source_name(data: Source) -> str:
    table = getattr(data, "table", data)
    kind = type(data).__name__.lower()
    return f"table {table!r}" if kind == "table" else f"{kind} table {table!r}"


def _ranked(section: Ranked, top: int) -> Any:
    by_class: dict[str, list[str]] = {}
    for r in section.rows:
        by_class.setdefault(r["label"], []).append(str(r[section.item]))
    shown = table("label", f"top {top} {section.item}s", title=section.title)
    for label, items in by_class.items():
        shown.add_row(label, ", ".join(items))
    return shown


def _normal(section: Normal, top: int) -> Any:
    shown = table("feature", "label", "mean", "variance", title=section.title)
    for r in section.rows:
        shown.add_row(r["feature"], r["label"], f"{r['mean']:.6g}", f"{r['var']:.6g}")
    return shown


def _frequencies(section: Frequencies, top: int) -> Any:
    """One row per (feature, class): its most probable values with their probabilities."""
    shown = table("feature", "label", f"top {top} values (probability)", title=section.title)
    grouped: dict[tuple[str, str], list[str]] = {}
    for r in section.rows:  # most probable first (Frequencies.top)
        cell = f"{r['value']} {r['probability']:.4f}"
        grouped.setdefault((str(r["feature"]), str(r["label"])), []).append(cell)
    for (feature, label), values in grouped.items():
        shown.add_row(feature, label, ", ".join(values))
    return shown


def _rows(section: Rows, top: int) -> Any:
    shown = table(*section.rows[0], title=section.title)
    for r in section.rows:
        shown.add_row(*(f"{v:.6f}" if isinstance(v, float) else str(v) for v in r.values()))
    return shown


def _note(section: Note, top: int) -> str:
    return section.text


# How show draws each form of section (sqlnb.kinds.base.Section): a table, or a line.
DRAW: dict[type[Section], Callable[[Any, int], Any]] = {
    Rows: _rows,
    Note: _note,
    Ranked: _ranked,
    Normal: _normal,
    Frequencies: _frequencies,
}


@command()
def show(
    db: DbArg,
    model_name: ModelOpt = "default",
    top: Annotated[
        int, typer.Option(help="Most indicative words per class; most probable values per feature.")
    ] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print only JSON.")] = False,
) -> None:
    """A model's classes, priors and counts; its most indicative words per class (text), or
    its per-class means, variances and most probable category values (tables)."""
    with opened(db) as database:
        m = load(database, model_name)
        classes, sections = m.classes(), [s.top(top) for s in m.describe(top)]
    if as_json:
        result = {"model": m.name, "kind": m.kind_name, "hyperparameters": m.params}
        described: dict[str, Any] = {"calibration": []}
        described |= {s.name: s.rows for s in sections}
        sys.stdout.write(
            json.dumps({**result, "classes": classes, **described}, indent=2, default=str) + "\n"
        )
        return
    echo(f"model {m.name!r}: {m.kind_name}, {brief(m.params)}")
    priors = table("label", "documents", "prior", "log prior")
    for c in classes:
        lp = c["log_prior"]
        prior = "0" if lp is None else f"{math.exp(lp):.4f}"
        priors.add_row(c["label"], f"{c['n_docs']:g}", prior, "-inf" if lp is None else f"{lp:.4f}")
    display(priors)
    for section in sections:
        if section.rows:
            drawn = DRAW[type(section)](section, top)
            if isinstance(drawn, str):
                echo(drawn)
            else:
                display(drawn)


@command("models")
def list_models(
    db: DbArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print only JSON.")] = False,
) -> None:
    """The models in a database: name, kind, hyperparameters, classes, sizes, trained-at."""
    with opened(db) as database:
        rows = catalog.entries(database)
    if as_json:
        sys.stdout.write(json.dumps(rows, indent=2, default=str) + "\n")
        return
    listing = table(
        "model", "kind", "hyperparameters", "classes", "documents", "features", "trained at"
    )
    for r in rows:
        params = {k: v for k, v in r["params"].items() if k != "features"}
        listing.add_row(
            r["model"],
            r["kind"],
            brief(params),
            ", ".join(r["classes"]),
            f"{r['n_docs']:g}",
            str(r["n_features"]),
            str(r["trained_at"]),
        )
    display(listing)


@command()
def explain(
    db: DbArg,
    model_name: ModelOpt = "default",
    data: Source = uses(SOURCE),
    doc: Annotated[str | None, typer.Option(help="Explain only this document.")] = None,
    top: Annotated[
        int | None, typer.Option(help="Keep the N largest contributions; the rest as (other).")
    ] = None,
    output: Annotated[
        str | None, typer.Option(help="Table to create (doc_id, feature, contribution).")
    ] = None,
    replace: ReplaceOpt = False,
) -> None:
    """Why each document got its label rather than the runner-up: each word's (or feature's)
    contribution, and the prior's; they add up to the log-posterior difference."""
    with opened(db) as database:
        m = load(database, model_name)
        query = m.explanation_query(data, doc=doc, top=top)
        if output is not None:
            n = database.write_table(output, query, replace=replace)
            echo(f"wrote {n} rows to {output}")
            return
        rows = database.fetch(query)
        if doc is not None and not rows:
            fail(f"no document {doc!r} in {_source_name(data)}")
        title = "contributions to log P(label) - log P(runner-up)"
        if doc is not None:
            from sqlglot import exp

            probabilities = exp.select("label", "proba").from_(
                m.prediction_query(data, proba=True, doc=doc, check=False).subquery("p")
            )
            ranked = sorted(database.fetch(probabilities), key=lambda r: -r[1])
            if len(ranked) > 1:
                title = (
                    f"document {doc}: why {ranked[0][0]!s} (P = {ranked[0][1]:.4f}) rather than "
                    f"the runner-up {ranked[1][0]!s} (P = {ranked[1][1]:.4f})"
                )
    shown = table("doc_id", "feature", "contribution", title=title)
    for doc_id, feature, contribution in sorted(
        rows, key=lambda r: (str(r[0]), r[1] == "(prior)", -abs(r[2] or 0))
    ):
        shown.add_row(str(doc_id), feature, "" if contribution is None else f"{contribution:+.4f}")
    display(shown)


@command()
def weights(
    db: DbArg,
    output: Annotated[str, typer.Option(help="Table to create (feature, weight).")],
    model_name: ModelOpt = "default",
    replace: ReplaceOpt = False,
) -> None:
    """A two-class text model as a linear classifier: weight per word and a (bias) row."""
    with opened(db) as database:
        m = load(database, model_name)
        n = database.write_table(output, m.weights_query(), replace=replace)
    echo(f"wrote {n} rows to {output}")


@command()
def report(
    db: DbArg,
    model_name: ModelOpt = "default",
    data: Source = uses(LABELED),
    labels: Labels = uses(TRUTH),
    html: Annotated[
        Path,
        typer.Option("--output", "-o", "--html", help="HTML file to write (self-contained)."),
    ] = Path("report.html"),
    replace: Annotated[bool, typer.Option(help="Replace the file if it exists.")] = False,
    time_column: TimeOpt = None,
    every: EveryOpt = settings.EVERY.default,
) -> None:
    """Write one self-contained HTML file: metrics, confusion matrix, per-class bars,
    calibration, indicative words or features, misclassified documents, the model; with
    --time-column, the drift of the documents over time (sqlnb monitor's numbers)."""
    from sqlnb.monitor import Windows
    from sqlnb.report import write_report

    if html.exists() and not replace:
        fail(f"{str(html)!r} exists: give --replace to overwrite it, or another --output")
    with opened(db) as database:
        m = load(database, model_name)
        windows = None if time_column is None else Windows(time_column, every)
        numbers = write_report(m, data, labels, html, windows)
    echo(
        f"wrote {html}: model {model_name!r} on {numbers['n_docs']} documents, accuracy "
        f"{numbers['accuracy']:.4f}, macro-F1 {numbers['macro_f1']:.4f}, log-loss "
        f"{numbers['log_loss']:.4f}, Brier {numbers['brier']:.4f}"
    )


@command()
def features(
    db: DbArg,
    score: Annotated[str, typer.Option(help="chi2 (default, with p-values) or mutual-info.")] = (
        "chi2"
    ),
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Table to create (every word).")
    ] = None,
    top: Annotated[int, typer.Option(help="Best words to print without --output.")] = 20,
    data: Source = uses(LABELED),
    labels: Labels = uses(TRUTH),
    tokenizer: TokenizerOptions = uses(TOKENIZER),
    replace: ReplaceOpt = False,
) -> None:
    """Score every word of labeled text by chi-squared (scikit-learn's chi2, with p-values) or
    by mutual information with the class: a table, or the best words printed."""
    from sqlnb import features as scoring

    if top < 1:
        fail("--top must be at least 1")
    with opened(db) as database:
        query, classes = scoring.word_scores(
            database, data, labels, score=score, tokenizer=tokenizer.resolve(database)
        )
        rows = scoring.ranked(database, query, score, len(classes))
        if output is not None:
            n = scoring.write(database, rows, output, replace=replace)
            echo(f"wrote {n} rows to {output}")
            return
    shown = table("word", score, *(["p-value"] if score == "chi2" else []))
    for row in rows[:top]:
        shown.add_row(str(row[0]), *(f"{v:.6g}" for v in row[1:]))
    display(shown)
