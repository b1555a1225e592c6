"""The ``sqlnb`` command: a thin layer over the Python API.

Results go to stdout. An error is one line on stderr and exit code 1; the database is left as
it was (every change runs in one transaction).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from sqlnb import engine, model
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Labels, Tokens
from sqlnb.kinds import KINDS

app = typer.Typer(
    help="Naive Bayes classifiers trained and applied inside SQL databases.",
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
sql_app = typer.Typer(
    help="Print the SQL a command would run, for any dialect, without running it.",
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
)
app.add_typer(sql_app, name="sql")

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

Kind = Enum("Kind", {k: k for k in KINDS}, type=str)  # type: ignore[misc]
DialectName = Enum("DialectName", {d: d for d in engine.DIALECTS}, type=str)  # type: ignore[misc]


def fail(message: str) -> NoReturn:
    """One line on stderr, exit code 1 (never wrapped to the terminal's width)."""
    sys.stderr.write(f"Error: {' '.join(message.split())}\n")
    raise typer.Exit(1)


@contextmanager
def errors() -> Iterator[None]:
    try:
        yield
    except SqlnbError as error:
        fail(str(error))
    except KeyboardInterrupt:
        sys.stderr.write("Interrupted: the database is as it was.\n")
        raise typer.Exit(130) from None


@contextmanager
def opened(db: str, *, create: bool = False) -> Iterator[Database]:
    """The database, with a progress bar on a terminal for long queries."""
    with errors():
        database = Database.connect(db, create=create)
    try:
        if sys.stderr.isatty():
            with Progress(
                TextColumn("running SQL"),
                BarColumn(),
                TimeElapsedColumn(),
                console=err,
                transient=True,
            ) as bar:
                task = bar.add_task("sql", total=100)
                database.progress = _progress(bar, task)
                with errors():
                    yield database
        else:
            with errors():
                yield database
    finally:
        database.close()


def _progress(bar: Progress, task: Any) -> Callable[[float], None]:
    def update(percent: float) -> None:
        if percent >= 0:
            bar.update(task, completed=percent)

    return update


# --- shared options --------------------------------------------------------------------------

DbArg = Annotated[str, typer.Argument(help="DuckDB file, sqlite:///path.db, or .sqlite file.")]
ModelOpt = Annotated[str, typer.Option("--model", "-m", help="Model name.")]
TokensOpt = Annotated[str, typer.Option(help="Tokens table, view or Parquet file.")]
LabelsOpt = Annotated[str, typer.Option(help="Labels table, view or Parquet file.")]
DocCol = Annotated[str, typer.Option(help="Document id column.")]
WordCol = Annotated[str, typer.Option(help="Word column of the tokens table.")]
CountCol = Annotated[
    str | None,
    typer.Option(help="Count column of the tokens table [default: count if present, else 1]."),
]
LabelCol = Annotated[str, typer.Option(help="Label column of the labels table.")]
KindOpt = Annotated[Kind, typer.Option(help="Model kind.")]
AlphaOpt = Annotated[
    float, typer.Option(help="Additive (Laplace/Lidstone) smoothing; 0 = maximum likelihood.")
]
FitPriorOpt = Annotated[
    bool, typer.Option("--fit-prior/--no-fit-prior", help="Learn class priors, or use uniform.")
]
ClassPriorOpt = Annotated[
    str | None, typer.Option(help="Given class priors, e.g. 'spam=0.3,ham=0.7'.")
]
PriorAlphaOpt = Annotated[
    float, typer.Option(help="Dirichlet smoothing of learned priors: (N_k + a) / (N + K a).")
]
DialectOpt = Annotated[DialectName, typer.Option(help="SQL dialect to print.")]


def _training_args(
    tokens: str,
    labels: str,
    doc_column: str,
    word_column: str,
    count_column: str | None,
    label_column: str,
    alpha: float,
    fit_prior: bool,
    class_prior: str | None,
    prior_alpha: float,
) -> tuple[Tokens, Labels, model.Params]:
    prior = model.parse_class_prior(class_prior) if class_prior is not None else None
    return (
        Tokens(tokens, doc_column, word_column, count_column),
        Labels(labels, doc_column, label_column),
        model.Params(alpha, fit_prior, prior, prior_alpha),
    )


# --- commands --------------------------------------------------------------------------------


@app.command()
def train(
    db: DbArg,
    tokens: TokensOpt = "tokens",
    labels: LabelsOpt = "labels",
    model_name: ModelOpt = "default",
    kind: KindOpt = Kind.multinomial,  # type: ignore[attr-defined]
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    label_column: LabelCol = "label",
    alpha: AlphaOpt = 1.0,
    fit_prior: FitPriorOpt = True,
    class_prior: ClassPriorOpt = None,
    prior_alpha: PriorAlphaOpt = 0.0,
) -> None:
    """Train a model (or replace one, atomically) from a tokens and a labels table."""
    with opened(db, create=True) as database:
        t, lab, params = _training_args(
            tokens,
            labels,
            doc_column,
            word_column,
            count_column,
            label_column,
            alpha,
            fit_prior,
            class_prior,
            prior_alpha,
        )
        statements = model.training_statements(
            database, t, lab, model=model_name, kind_name=kind.value, params=params
        )
        with database.transaction():
            for statement in statements:
                database.execute(statement)
        info = model.load(database, model_name).info
    out.print(
        f"trained {info['kind']} model {model_name!r}: {int(info['n_docs'])} documents, "
        f"{info['n_classes']} classes, {info['n_features']} words"
    )


@app.command()
def predict(
    db: DbArg,
    output: Annotated[str, typer.Option(help="Table to create with the predictions.")],
    model_name: ModelOpt = "default",
    tokens: TokensOpt = "tokens",
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    proba: Annotated[
        bool, typer.Option(help="One row per (document, class) with log_proba and proba.")
    ] = False,
    replace: Annotated[bool, typer.Option(help="Replace OUTPUT if it exists.")] = False,
) -> None:
    """Classify every document of a tokens table into a new table (doc_id, label, proba)."""
    with opened(db) as database:
        m = model.load(database, model_name)
        n = m.predict_to(
            Tokens(tokens, doc_column, word_column, count_column),
            output,
            proba=proba,
            replace=replace,
        )
    out.print(f"wrote {n} rows to {output}")


@app.command()
def evaluate(
    db: DbArg,
    model_name: ModelOpt = "default",
    tokens: TokensOpt = "tokens",
    labels: LabelsOpt = "labels",
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    label_column: LabelCol = "label",
    as_json: Annotated[bool, typer.Option("--json", help="Print only a JSON object.")] = False,
) -> None:
    """Accuracy, per-class precision/recall/F1, macro-F1, log-loss and the confusion matrix."""
    with opened(db) as database:
        m = model.load(database, model_name)
        result = m.evaluate(
            Tokens(tokens, doc_column, word_column, count_column),
            Labels(labels, doc_column, label_column),
        )
    if as_json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        return
    out.print(
        f"model {model_name!r} on {result['n_docs']} documents: accuracy "
        f"{result['accuracy']:.4f}, macro-F1 {result['macro_f1']:.4f}, "
        f"log-loss {result['log_loss']:.4f}"
    )
    table = Table("label", "precision", "recall", "F1", "support")
    for label, r in result["per_class"].items():
        table.add_row(
            label,
            f"{r['precision']:.4f}",
            f"{r['recall']:.4f}",
            f"{r['f1']:.4f}",
            str(r["support"]),
        )
    out.print(table)
    labels_seen = list(result["per_class"])
    counts = {(c["true"], c["predicted"]): c["count"] for c in result["confusion"]}
    matrix = Table("true \\ predicted", *labels_seen, title="confusion matrix")
    for t in labels_seen:
        matrix.add_row(t, *(str(counts.get((t, p), 0)) for p in labels_seen))
    out.print(matrix)


@app.command()
def show(
    db: DbArg,
    model_name: ModelOpt = "default",
    top: Annotated[int, typer.Option(help="Most indicative words per class.")] = 10,
) -> None:
    """A model's classes, priors and counts, and its most indicative words per class."""
    with opened(db) as database:
        m = model.load(database, model_name)
        classes = m.classes()
        words = m.top_words(top)
    out.print(f"model {m.name!r}: {m.kind_name}, {json.dumps(m.params)}")
    table = Table("label", "documents", "prior", "log prior")
    for c in classes:
        lp = c["log_prior"]
        prior = "0" if lp is None else f"{_exp(lp):.4f}"
        table.add_row(c["label"], f"{c['n_docs']:g}", prior, "-inf" if lp is None else f"{lp:.4f}")
    out.print(table)
    by_class: dict[str, list[str]] = {}
    for w in words:
        by_class.setdefault(w["label"], []).append(w["word"])
    indicative = Table("label", f"top {top} words", title="most indicative words")
    for label, ws in by_class.items():
        indicative.add_row(label, ", ".join(ws))
    out.print(indicative)


def _exp(x: float) -> float:
    import math

    return math.exp(x)


@app.command("models")
def list_models(
    db: DbArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print only JSON.")] = False,
) -> None:
    """The models in a database: name, kind, hyperparameters, classes, sizes, trained-at."""
    with opened(db) as database:
        rows = model.models(database)
    if as_json:
        sys.stdout.write(json.dumps(rows, indent=2, default=str) + "\n")
        return
    table = Table(
        "model", "kind", "hyperparameters", "classes", "documents", "vocabulary", "trained at"
    )
    for r in rows:
        table.add_row(
            r["model"],
            r["kind"],
            json.dumps(r["params"]),
            ", ".join(r["classes"]),
            f"{r['n_docs']:g}",
            str(r["n_features"]),
            str(r["trained_at"]),
        )
    out.print(table)


@app.command("drop")
def drop_model(db: DbArg, model_name: ModelOpt = "default") -> None:
    """Remove a model."""
    with opened(db) as database:
        model.drop(database, model_name)
    out.print(f"dropped model {model_name!r}")


@app.command()
def demo(
    path: Annotated[Path, typer.Argument(help="DuckDB file to build.")] = Path("sqlnb-demo.duckdb"),
) -> None:
    """Build a DuckDB file from bundled fine-food reviews, train, evaluate and classify."""
    from sqlnb import demo as demo_module

    with errors():
        demo_module.run(path, out)


# --- sql -------------------------------------------------------------------------------------


def _print_script(statements: list[Any], dialect_name: str, *, transaction: bool) -> None:
    d = engine.dialect(dialect_name)
    if transaction and d.begin:
        statements = [d.begin, *statements, d.commit or "COMMIT"]
    sys.stdout.write(engine.script(statements, dialect_name))


@sql_app.command("train")
def sql_train(
    db: DbArg,
    dialect: DialectOpt = DialectName.duckdb,  # type: ignore[attr-defined]
    tokens: TokensOpt = "tokens",
    labels: LabelsOpt = "labels",
    model_name: ModelOpt = "default",
    kind: KindOpt = Kind.multinomial,  # type: ignore[attr-defined]
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    label_column: LabelCol = "label",
    alpha: AlphaOpt = 1.0,
    fit_prior: FitPriorOpt = True,
    class_prior: ClassPriorOpt = None,
    prior_alpha: PriorAlphaOpt = 0.0,
) -> None:
    """Print the SQL script that `sqlnb train` would run."""
    with opened(db) as database:
        t, lab, params = _training_args(
            tokens,
            labels,
            doc_column,
            word_column,
            count_column,
            label_column,
            alpha,
            fit_prior,
            class_prior,
            prior_alpha,
        )
        statements = model.training_statements(
            database, t, lab, model=model_name, kind_name=kind.value, params=params
        )
        _print_script(statements, dialect.value, transaction=True)


@sql_app.command("predict")
def sql_predict(
    db: DbArg,
    output: Annotated[str, typer.Option(help="Table the script creates.")],
    dialect: DialectOpt = DialectName.duckdb,  # type: ignore[attr-defined]
    model_name: ModelOpt = "default",
    tokens: TokensOpt = "tokens",
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    proba: Annotated[bool, typer.Option(help="One row per (document, class).")] = False,
) -> None:
    """Print the SQL script that `sqlnb predict` would run."""
    with opened(db) as database:
        m = model.load(database, model_name)
        statements = m.prediction_statements(
            Tokens(tokens, doc_column, word_column, count_column),
            output,
            proba=proba,
            replace=True,
        )
        _print_script(statements, dialect.value, transaction=False)


@sql_app.command("evaluate")
def sql_evaluate(
    db: DbArg,
    dialect: DialectOpt = DialectName.duckdb,  # type: ignore[attr-defined]
    model_name: ModelOpt = "default",
    tokens: TokensOpt = "tokens",
    labels: LabelsOpt = "labels",
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    label_column: LabelCol = "label",
) -> None:
    """Print the SQL script that `sqlnb evaluate` would run (confusion, per class, summary)."""
    with opened(db) as database:
        m = model.load(database, model_name)
        create, queries, drop_it = m.evaluation_statements(
            Tokens(tokens, doc_column, word_column, count_column),
            Labels(labels, doc_column, label_column),
        )
        _print_script([drop_it, create, *queries, drop_it], dialect.value, transaction=False)


def main() -> None:  # pragma: no cover
    app()
