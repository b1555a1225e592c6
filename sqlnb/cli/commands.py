"""The commands that write: train (and ``sql train``), retune, predict (and ``sql predict``),
classify, tokenize, tune, demo (``functions``: :mod:`sqlnb.cli.upkeep`; versions, rollback,
drop, export, import: :mod:`sqlnb.cli.production`). Each is a thin layer over the API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from sqlnb import catalog, multilabel, settings, templates, training, tuning, versions
from sqlnb.cli import upkeep  # noqa: F401  (registers ``sqlnb functions``)
from sqlnb.cli.console import (
    FILE_SUFFIXES,
    OTHER_FILES,
    dropped,
    echo,
    errors,
    fail,
    note,
    opened,
    print_rows,
)
from sqlnb.cli.learning import train_em
from sqlnb.cli.options import (
    DATA,
    FIXED,
    HYPER,
    LABELED,
    LABELS,
    PRUNING,
    SOURCE,
    TOKENIZER,
    TRUTH,
    WEIGHTED,
    AlphasOpt,
    ConfidenceOpt,
    CostsOpt,
    DbArg,
    EmIterationsOpt,
    EmToleranceOpt,
    EmWeightOpt,
    FoldsOpt,
    HierarchyOpt,
    KindOpt,
    MethodOpt,
    ModelOpt,
    MultiLabelOpt,
    PriorsOpt,
    ReplaceOpt,
    SelectOpt,
    ThresholdOpt,
    TokenizerOptions,
    UncalibratedOpt,
    UnseenOpt,
    renamed,
    uses,
)
from sqlnb.cli.production import KeepOpt, VersionOpt
from sqlnb.cli.registry import command, print_script
from sqlnb.engine import bulk, dialects
from sqlnb.errors import SqlnbError
from sqlnb.features import Selection
from sqlnb.inputs import Docs, Labels, Source, Tokens
from sqlnb.kinds.presentation import noun
from sqlnb.model import Model, load
from sqlnb.multilabel import counting
from sqlnb.pruning import Pruning


@command(sql="Print the SQL script that `sqlnb train` would run.")
def train(
    db: DbArg,
    model_name: ModelOpt = "default",
    kind: KindOpt = None,
    data: Source = uses(DATA),
    labels: Labels = uses(LABELS),
    hyper: dict[str, Any] = uses(HYPER),
    tokenizer: TokenizerOptions = uses(TOKENIZER),
    pruning: Pruning | None = uses(PRUNING),
    select: SelectOpt = None,
    append: Annotated[
        bool,
        typer.Option(
            "--append",
            help="Add this data's counts to the existing model (a batch appended twice counts "
            "twice).",
        ),
    ] = False,
    unlabeled: Annotated[
        str | None, typer.Option(help="Semi-supervised EM: a tokens table of unlabeled documents.")
    ] = None,
    unlabeled_docs: Annotated[
        str | None,
        typer.Option(help="Or: a table of unlabeled raw text (the --docs table's columns)."),
    ] = None,
    em_weight: EmWeightOpt = None,
    em_iterations: EmIterationsOpt = None,
    em_tolerance: EmToleranceOpt = None,
    keep: KeepOpt = versions.KEEP,
    hierarchy: HierarchyOpt = None,
    confidence: ConfidenceOpt = None,
    multi_label: MultiLabelOpt = False,
    threshold: ThresholdOpt = None,
    dialect: str | None = None,
) -> None:
    """Train a model (or replace one, atomically) from a tokens and a labels table, from raw
    text (--docs), or from a wide table (--table); with --unlabeled, by semi-supervised EM."""
    em = (em_weight, em_iterations, em_tolerance)
    if unlabeled is not None or unlabeled_docs is not None:
        if append or multi_label or any(x is not None for x in (dialect, select, pruning)):
            fail("--unlabeled trains by EM: not with --append, --multi-label, --select, pruning "
                 "or sql train")  # fmt: skip
        train_em(db, model_name, kind, data, labels, hyper, tokenizer, unlabeled, unlabeled_docs,
            em, keep)  # fmt: skip
        return
    if any(setting is not None for setting in em):
        fail("--em-weight, --em-iterations and --em-tolerance go with --unlabeled (EM)")
    with errors():  # before the database is opened (Spark: a JVM)
        catalog.check_name(model_name)
        versions.check_keep(keep)
    with opened(db, create=dialect is None) as database:
        the_tokenizer = tokenizer.resolve(database)
        if append:
            tree = {"hierarchy": hierarchy, "confidence": confidence, "threshold": threshold}
            given = list(hyper) + [k for k, v in tree.items() if v is not None]
            if given or the_tokenizer is not None or pruning is not None or select is not None:
                option = (
                    "--" + given[0].replace("_", "-") if given
                    else "--select" if select is not None
                    else "a pruning option" if pruning is not None
                    else "a tokenizer option"
                )  # fmt: skip
                raise SqlnbError(
                    f"with --append the model's own settings apply: {option} is not "
                    "allowed (use sqlnb retune to change smoothing or priors)"
                )
            plan = counting.appending(database, data, labels, model=model_name, dialect=dialect)
            if kind is not None and kind != plan.kind.name:
                raise SqlnbError(f"model {model_name!r} is {plan.kind.name}, not {kind}")
        else:
            chosen = None if select is None else Selection.parse(select)
            settings: dict[str, Any] = {"kind": kind, "hyper": hyper, "tokenizer": the_tokenizer}
            settings["hierarchy"] = (hierarchy, confidence)
            settings.update(multilabel.given(multi_label, threshold))  # several labels each
            plan = (counting.train if multi_label else training.train)(
                database,
                data,
                labels,
                model=model_name,
                pruning=pruning,
                select=chosen,
                dialect=dialect,
                **settings,
            )
        if dialect is not None:
            print_script(plan.script(dialect))
            return
        plan.keep = keep
        entry = plan.apply()
    weighted = entry.params.get("class_weight") or any(
        getattr(s, "weight", None) for s in (labels, data)
    )
    echo(
        f"{'appended to' if append else 'trained'} {entry.kind_name} model {model_name!r}: "
        f"{float(entry.info['n_docs']):.10g} documents{' (weighted)' if weighted else ''}, "
        f"{entry.info['n_classes']} classes, {entry.info['n_features']} {noun(entry.kind)}"
    )
    dropped(plan.drops_calibration)


@command()
def retune(
    db: DbArg,
    model_name: ModelOpt = "default",
    hyper: dict[str, Any] = uses(HYPER),
    keep: KeepOpt = versions.KEEP,
) -> None:
    """Change the hyperparameters that derive a trained model's parameters from its stored
    counts (the README's table: used when deriving), without its training data."""
    with opened(db) as database:
        plan = training.retune(database, model_name, hyper)
        plan.keep = keep
        entry = plan.apply()
    shown = {k: v for k, v in entry.params.items() if k not in ("features", "tokenizer", "pruning")}
    echo(f"retuned model {model_name!r}: {json.dumps(shown)}")
    dropped(plan.drops_calibration)


@command(
    sql="Print the SQL script that `sqlnb predict` would run.",
    run_only=("replace", "unseen", "output_format"),
)
def predict(
    db: DbArg,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="Table to create, or a file (.parquet, .csv, .json); none or - prints the rows.",
        ),
    ] = None,
    model_name: ModelOpt = "default",
    data: Source = uses(SOURCE),
    proba: Annotated[
        bool, typer.Option(help="One row per (document, class) with log_proba and proba.")
    ] = False,
    replace: ReplaceOpt = False,
    unseen: UnseenOpt = settings.UNSEEN.default,
    output_format: Annotated[
        str | None,
        typer.Option(
            "--format",
            help="How printed rows look: table, csv or json (default: table on a terminal, "
            "else csv).",
        ),
    ] = None,
    uncalibrated: UncalibratedOpt = False,
    priors: PriorsOpt = None,
    costs: CostsOpt = None,
    version: VersionOpt = None,
    confidence: ConfidenceOpt = None,
    threshold: ThresholdOpt = None,
    dialect: str | None = None,
) -> None:
    """Classify every document of a tokens table, --docs table (raw text) or --table: into a
    new table (doc_id, label, proba), a file, or printed."""
    printed = output is None or output == "-"
    suffix = Path(str(output)).suffix.lower()
    to_file = not printed and suffix in FILE_SUFFIXES
    if dialect is None:  # the output checked before the database is opened (Spark: a JVM)
        if not printed and suffix in OTHER_FILES:
            fail(f"{output!r}: a file must end in .parquet, .csv or .json")
        if to_file and Path(str(output)).exists() and not replace:
            fail(f"{output!r} exists: give --replace to overwrite it")
    elif printed:
        fail("give --output TABLE: the script writes the predictions into a table")
    if not printed and not to_file:  # a table's name too (an empty part, four parts)
        with errors():
            templates.table(str(output))
    # sqlnb's relations listed once, not asked for one by one (DuckDB: 16 round trips -> 13)
    with opened(db) as database, database.probing():
        m = load(database, versions.reading(database, model_name, version))
        decided = _decided(m, data, uncalibrated, priors, costs)
        decided["confidence"] = confidence  # hierarchical labels: the walk's (sqlnb.labels)
        decided["threshold"] = threshold  # multi-label: the labels kept (sqlnb.multilabel)
        if dialect is not None:
            into = str(output)  # (a table: checked above)
            statements = m.prediction_statements(
                data, into, proba=proba, replace=True, guard=False, dialect=dialect, **decided
            )
            print_script(dialects.script(statements, dialect))
            return
        if not printed and not to_file:
            n = m.predict_to(
                data, str(output), proba=proba, replace=replace, unseen=unseen, **decided
            )
        else:
            early = database.dialect.fail is None  # else the query checks it in one line
            inner = m.prediction_query(data, proba=proba, unseen=unseen, early=early, **decided)
            names = [s.alias_or_name for s in inner.selects]
            keys = ["doc_id", *(["label"] if proba else [])]
            ordered = bulk.in_order(database, inner, keys)  # printed and file rows in order
            if printed:
                print_rows(names, database.fetch(ordered), output_format)
                return
            n = database.write_file(ordered, Path(str(output)))
    echo(f"wrote {n} rows to {output}")


def _decided(
    m: Model, data: Source, uncalibrated: bool, priors: str | None, costs: str | None
) -> dict[str, Any]:
    """The prediction options of --uncalibrated, --priors and --costs; estimated priors are
    printed on stderr (stdout may be the rows)."""
    new = None if priors is None else m.new_priors(priors, data, calibrate=not uncalibrated)
    if priors == "estimate" and new is not None:
        shown = ", ".join(f"{k}={v:.6g}" for k, v in new.items())
        note(f"estimated priors: {shown}")
    return m.decision_options(priors=new, costs=costs, calibrate=not uncalibrated)


@command(
    sql="Print the SQL script that `sqlnb evaluate` would run (confusion, per class, summary).",
    run_only=("as_json",),
)
def evaluate(
    db: DbArg,
    model_name: ModelOpt = "default",
    data: Source = uses(LABELED),
    labels: Labels = uses(TRUTH),
    as_json: Annotated[bool, typer.Option("--json", help="Print only a JSON object.")] = False,
    dialect: str | None = None,
) -> None:
    """Accuracy, per-class precision/recall/F1, macro-F1, log-loss, the Brier score, the expected
    calibration error (15 bins) and the confusion matrix."""
    with opened(db) as database:
        m = load(database, model_name)
        if dialect is not None:
            create, queries, drop = m.evaluation_statements(
                data, labels, guard=False, dialect=dialect
            )
            print_script(dialects.script([drop, create, *queries, drop], dialect))
            return
        result = m.evaluate(data, labels)
    from sqlnb.cli.show import print_evaluation

    print_evaluation(model_name, result, as_json=as_json)


@command()
def calibrate(
    db: DbArg,
    method: MethodOpt = settings.METHOD.default,
    model_name: ModelOpt = "default",
    data: Source = uses(LABELED),
    labels: Labels = uses(TRUTH),
    keep: KeepOpt = versions.KEEP,
) -> None:
    """Calibrate a model's probabilities on held-out labeled documents; stored with the model,
    used by every prediction after it (predict --uncalibrated gives the model's own)."""
    with opened(db) as database:
        m = load(database, model_name)
        if method == "none":
            m.calibrate(data, labels, "none", keep)
            echo(f"model {model_name!r} is uncalibrated")
            return
        fitted = m.calibrate(data, labels, method, keep)  # checks the data first
        before = m.evaluate(data, labels, calibrate=False)
        after = load(database, model_name).evaluate(data, labels)
    echo(
        f"calibrated model {model_name!r} by {method}{fitted.detail} on {fitted.n_docs} documents: "
        f"log-loss {before['log_loss']:.4f} -> {after['log_loss']:.4f}, ECE "
        f"{before['ece']:.4f} -> {after['ece']:.4f}, Brier {before['brier']:.4f} -> "
        f"{after['brier']:.4f}, accuracy {before['accuracy']:.4f} -> {after['accuracy']:.4f}"
    )


@command()
def classify(
    db: DbArg,
    update: Annotated[
        str | None, typer.Option(help="The table whose rows to classify, in place.")
    ] = None,
    into: Annotated[
        str, typer.Option(help="Column to write the label into (added if missing).")
    ] = "",
    model_name: ModelOpt = "default",
    id_column: Annotated[str | None, typer.Option(help="Id column of UPDATE (default: id).")] = (
        None
    ),
    text_column: Annotated[
        str | None,
        typer.Option(help="Text column of UPDATE (raw text, tokenized as the model's)."),
    ] = None,
    tokens: Annotated[
        str | None, typer.Option(help="Or: a tokens table whose doc_id matches UPDATE's id.")
    ] = None,
    doc_column: Annotated[str, typer.Option(help="Document id column of --tokens.")] = "doc_id",
    word_column: Annotated[str, typer.Option(help="Word column of --tokens.")] = "word",
    count_column: Annotated[
        str | None,
        typer.Option(help="Count column of --tokens (default: count if present, else 1)."),
    ] = None,
    proba_into: Annotated[
        str | None, typer.Option(help="Column to write the label's probability into.")
    ] = None,
    cost_into: Annotated[
        str | None,
        typer.Option(help="Column to write the label's expected cost into (with --costs)."),
    ] = None,
    uncalibrated: UncalibratedOpt = False,
    priors: PriorsOpt = None,
    costs: CostsOpt = None,
    table: Annotated[str | None, typer.Option(hidden=True, help="Old name of --update.")] = None,
) -> None:
    """Write predicted labels (and probabilities) into columns of your own table, in one
    transaction; every other column and row stays as it was."""
    update = renamed("--table", "--update", table, update)
    if not update or not into:
        fail("give --update TABLE (the table to classify) and --into COLUMN")
    with opened(db) as database:
        m = load(database, model_name)
        id_name = id_column or "id"
        if (text_column is None) == (tokens is None):
            raise SqlnbError("give --text-column (raw text) or --tokens (a tokens table)")
        source: Source = (
            Docs(update, id_name, text_column)
            if text_column is not None
            else Tokens(tokens or "tokens", doc_column, word_column, count_column)
        )
        decided = _decided(m, source, uncalibrated, priors, costs)
        n = m.classify(update, id_name, source, into, proba_into, cost_into, **decided)
    echo(f"classified {n} rows of {update} into {into}")


@command()
def tokenize(
    db: DbArg,
    docs: Annotated[str, typer.Option(help="Table of documents.")],
    output: Annotated[str, typer.Option(help="Tokens table to create.")],
    id_column: Annotated[
        str | None, typer.Option(help="Id column of the --docs table (default: doc_id).")
    ] = None,
    text_column: Annotated[str, typer.Option(help="Text column of the --docs table.")] = "text",
    tokenizer: TokenizerOptions = uses(TOKENIZER),
    replace: ReplaceOpt = False,
) -> None:
    """Write a tokens table (doc_id, word, count) from a table of raw text, in SQL."""
    if output == "-":
        fail("tokenize writes a table: give --output TABLE")
    from sqlnb.tokenizer import Tokenizer

    with opened(db) as database:
        chosen = tokenizer.resolve(database) or Tokenizer()
        n = chosen.write(
            database, Docs(docs, id_column or "doc_id", text_column), output, replace=replace
        )
    echo(f"wrote {n} rows to {output}")


@command("tune")
def tune_alpha(
    db: DbArg,
    alpha: AlphasOpt = settings.ALPHAS.written,
    folds: FoldsOpt = settings.FOLDS.default,
    kind: KindOpt = None,
    data: Source = uses(WEIGHTED),
    labels: Labels = uses(LABELS),
    tokenizer: TokenizerOptions = uses(TOKENIZER),
    hyper: dict[str, Any] = uses(FIXED),
    as_json: Annotated[bool, typer.Option("--json", help="Print only JSON.")] = False,
) -> None:
    """Choose alpha by k-fold cross-validation in SQL (folds by a hash of doc_id); the other
    hyperparameters given are the same in every fold."""
    try:
        alphas = [float(a) for a in alpha.split(",") if a.strip()]
    except ValueError:
        fail(f"--alpha {alpha!r} is not a comma-separated list of numbers")
    with opened(db) as database:
        result = tuning.tune(
            database,
            data,
            labels,
            alphas=alphas,
            folds=folds,
            kind=kind,
            tokenizer=tokenizer.resolve(database),
            **hyper,
        )
    from sqlnb.cli.show import print_tuning

    print_tuning(result, folds, as_json=as_json)


@command()
def demo(
    path: Annotated[Path, typer.Argument(help="DuckDB file to build.")] = Path("sqlnb-demo.duckdb"),
) -> None:
    """Build a DuckDB file from bundled fine-food reviews, train, evaluate and classify."""
    from sqlnb import demo as demo_module
    from sqlnb.cli.show import print_demo

    with errors():
        print_demo(demo_module.run(path))
