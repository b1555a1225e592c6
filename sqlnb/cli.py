"""The ``sqlnb`` command: a thin layer over the Python API.

Results go to stdout. An error is one line on stderr and exit code 1; the database is left as
it was (every change runs in one transaction).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as Table_

from sqlnb import engine, model
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Labels, Table, Tokens
from sqlnb.kinds import KINDS
from sqlnb.report import write_report
from sqlnb.tokenizer import (
    DEFAULT_PATTERN,
    Docs,
    Tokenizer,
    parse_ngrams,
    stop_word_list,
)

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

DbArg = Annotated[
    str,
    typer.Argument(help="DuckDB file, sqlite:///path.db, postgresql://..., or spark://MASTER."),
]
ModelOpt = Annotated[str, typer.Option("--model", "-m", help="Model name.")]
TokensOpt = Annotated[str, typer.Option(help="Tokens table, view or Parquet file.")]
LabelsOpt = Annotated[
    str | None,
    typer.Option(
        help="Labels table, view or Parquet file (default: labels; with --table, "
        "the table's own label column)."
    ),
]
TableOpt = Annotated[
    str | None, typer.Option(help="Wide table (one row per example) instead of tokens.")
]
IdCol = Annotated[
    str | None,
    typer.Option(help="Id column of the --table (default: id) or --docs table (default: doc_id)."),
]
WeightCol = Annotated[
    str | None,
    typer.Option(help="Sample-weight column of the labels table (or --table / --docs table)."),
]
DocsOpt = Annotated[str | None, typer.Option(help="Table of raw text documents.")]
TextCol = Annotated[str, typer.Option(help="Text column of the --docs table.")]
LowercaseOpt = Annotated[
    bool | None, typer.Option("--lowercase/--no-lowercase", help="Lowercase first (default: on).")
]
PatternOpt = Annotated[
    str | None,
    typer.Option(
        help="Token regular expression (RE2) (default: runs of Unicode letters and "
        "digits, apostrophes inside words)."
    ),
]
StopWordsOpt = Annotated[
    str | None,
    typer.Option(help="'english' (scikit-learn's list) or a table with one column 'word'."),
]
NgramsOpt = Annotated[str | None, typer.Option(help="Word n-gram range, e.g. 1-2 (default: 1-1).")]
MinDfOpt = Annotated[
    str | None, typer.Option(help="Drop words in fewer documents (count, or fraction; default 1).")
]
MaxDfOpt = Annotated[
    str | None, typer.Option(help="Drop words in more documents (count, or fraction; default 1.0).")
]
MaxFeaturesOpt = Annotated[
    int | None, typer.Option(help="Keep only the most frequent words (default: all).")
]
DocCol = Annotated[str, typer.Option(help="Document id column.")]
WordCol = Annotated[str, typer.Option(help="Word column of the tokens table.")]
CountCol = Annotated[
    str | None,
    typer.Option(help="Count column of the tokens table (default: count if present, else 1)."),
]
LabelCol = Annotated[str, typer.Option(help="Label column of the labels table (or --table).")]
FeaturesOpt = Annotated[
    str | None, typer.Option(help="Feature columns of --table, comma-separated (default: all).")
]
GaussianOpt = Annotated[str | None, typer.Option(help="Columns to model as Gaussian.")]
CategoricalOpt = Annotated[str | None, typer.Option(help="Columns to model as categorical.")]
KindOpt = Annotated[
    str | None,
    typer.Option(
        help=f"Model kind: {', '.join(KINDS)} (default: multinomial; with --table, mixed)."
    ),
]
AlphaOpt = Annotated[
    float | None,
    typer.Option(
        help="Additive smoothing (Laplace 1, Lidstone > 0, 0 = maximum likelihood) (default: 1)."
    ),
]
BetaOpt = Annotated[
    float | None, typer.Option(help="Bernoulli: pseudo-count of absence (default: alpha).")
]
NormOpt = Annotated[
    bool | None, typer.Option("--norm/--no-norm", help="Complement: normalise the weights.")
]
FitPriorOpt = Annotated[
    bool | None,
    typer.Option("--fit-prior/--no-fit-prior", help="Learn class priors (default), or uniform."),
]
ClassPriorOpt = Annotated[
    str | None, typer.Option(help="Given class priors, e.g. 'spam=0.3,ham=0.7'.")
]
PriorAlphaOpt = Annotated[
    float | None,
    typer.Option(help="Dirichlet smoothing of learned priors: (N_k + a) / (N + K a) (default: 0)."),
]
VarSmoothingOpt = Annotated[
    float | None,
    typer.Option(help="Gaussian: add this times the largest feature variance (default: 1e-9)."),
]
SampleVarianceOpt = Annotated[
    bool | None,
    typer.Option(
        "--sample-variance/--population-variance",
        help="Gaussian: n - 1 variance (default: population, n).",
    ),
]
UnseenOpt = Annotated[
    str, typer.Option(help="Categorical value never seen in training: 'ignore' or 'error'.")
]
DialectOpt = Annotated[
    str, typer.Option(help=f"SQL dialect to print: {', '.join(engine.DIALECTS)}.")
]


def _names(text: str | None) -> tuple[str, ...]:
    return tuple(n.strip() for n in text.split(",") if n.strip()) if text else ()


def _data(
    tokens: str,
    table: str | None,
    docs: str | None,
    doc_column: str,
    word_column: str,
    count_column: str | None,
    id_column: str | None,
    text_column: str,
    label_column: str,
    features: str | None = None,
    gaussian: str | None = None,
    categorical: str | None = None,
    weight: str | None = None,
) -> Tokens | Table | Docs:
    """The input: a wide table with --table, raw text with --docs, else a tokens table."""
    if table is not None and docs is not None:
        raise SqlnbError("give --table or --docs, not both")
    if table is not None:
        return Table(
            table,
            id_column or "id",
            label_column,
            _names(features) or None,
            _names(gaussian),
            _names(categorical),
            weight,
        )
    if docs is not None:
        return Docs(docs, id_column or "doc_id", text_column, label_column, weight)
    return Tokens(tokens, doc_column, word_column, count_column)


def _labels(
    labels: str | None,
    table: str | None,
    docs: str | None,
    doc_column: str,
    label_column: str,
    weight: str | None = None,
) -> Labels | None:
    """The labels table; without --labels, the --table's or --docs table's own label column."""
    if labels is None:
        if table is not None or docs is not None:
            return None
        return Labels("labels", doc_column, label_column, weight)
    return Labels(labels, doc_column, label_column, weight)


def _tokenizer(
    database: Database,
    lowercase: bool | None,
    pattern: str | None,
    stop_words: str | None,
    ngrams: str | None,
) -> Tokenizer | None:
    if lowercase is None and pattern is None and stop_words is None and ngrams is None:
        return None
    return Tokenizer(
        True if lowercase is None else lowercase,
        pattern or DEFAULT_PATTERN,
        stop_word_list(database, stop_words),
        parse_ngrams(ngrams) if ngrams else (1, 1),
    )


def _pruning(
    min_df: str | None, max_df: str | None, max_features: int | None
) -> model.Pruning | None:
    if min_df is None and max_df is None and max_features is None:
        return None
    return model.Pruning(
        model.parse_df(min_df or "1"), model.parse_df(max_df or "1.0"), max_features
    )


def _training(database: Database, o: dict[str, Any]) -> tuple[list[Any], Any, dict[str, Any]]:
    """The statements of `train` (or `train --append`), from the command's options."""
    data = _data(
        o["tokens"],
        o["table"],
        o["docs"],
        o["doc_column"],
        o["word_column"],
        o["count_column"],
        o["id_column"],
        o["text_column"],
        o["label_column"],
        o["features"],
        o["gaussian"],
        o["categorical"],
        o["weight_column"],
    )
    labels = _labels(
        o["labels"], o["table"], o["docs"], o["doc_column"], o["label_column"], o["weight_column"]
    )
    prior = o["class_prior"]
    hyperparameters = {
        "alpha": o["alpha"],
        "beta": o["beta"],
        "norm": o["norm"],
        "fit_prior": o["fit_prior"],
        "class_prior": None if prior is None else model.parse_class_prior(prior),
        "prior_alpha": o["prior_alpha"],
        "var_smoothing": o["var_smoothing"],
        "sample_variance": o["sample_variance"],
    }
    tokenizer = _tokenizer(
        database, o["lowercase"], o["token_pattern"], o["stop_words"], o["ngrams"]
    )
    pruning = _pruning(o["min_df"], o["max_df"], o["max_features"])
    kind, name = o["kind"], o["model_name"]
    if o["append"]:
        given = [k for k, v in hyperparameters.items() if v is not None]
        if given or tokenizer is not None or pruning is not None:
            option = "--" + given[0].replace("_", "-") if given else "a tokenizer option"
            raise SqlnbError(
                f"with --append the model's own settings apply: {option} is not "
                "allowed (use sqlnb retune to change smoothing or priors)"
            )
        statements, the_kind, params = model.append_statements(database, data, labels, model=name)
        if kind is not None and kind != the_kind.name:
            raise SqlnbError(f"model {name!r} is {the_kind.name}, not {kind}")
        return statements, the_kind, params
    return model.training_statements(
        database,
        data,
        labels,
        model=name,
        kind_name=kind,
        hyperparameters=hyperparameters,
        tokenizer=tokenizer,
        pruning=pruning,
    )


# --- commands --------------------------------------------------------------------------------


@app.command()
def train(
    ctx: typer.Context,
    db: DbArg,
    tokens: TokensOpt = "tokens",
    labels: LabelsOpt = None,
    table: TableOpt = None,
    docs: DocsOpt = None,
    model_name: ModelOpt = "default",
    kind: KindOpt = None,
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    id_column: IdCol = None,
    text_column: TextCol = "text",
    label_column: LabelCol = "label",
    features: FeaturesOpt = None,
    gaussian: GaussianOpt = None,
    categorical: CategoricalOpt = None,
    alpha: AlphaOpt = None,
    beta: BetaOpt = None,
    norm: NormOpt = None,
    fit_prior: FitPriorOpt = None,
    class_prior: ClassPriorOpt = None,
    prior_alpha: PriorAlphaOpt = None,
    var_smoothing: VarSmoothingOpt = None,
    sample_variance: SampleVarianceOpt = None,
    lowercase: LowercaseOpt = None,
    token_pattern: PatternOpt = None,
    stop_words: StopWordsOpt = None,
    ngrams: NgramsOpt = None,
    min_df: MinDfOpt = None,
    max_df: MaxDfOpt = None,
    max_features: MaxFeaturesOpt = None,
    weight_column: WeightCol = None,
    append: Annotated[
        bool, typer.Option("--append", help="Add this data's counts to the existing model.")
    ] = False,
) -> None:
    """Train a model (or replace one, atomically) from a tokens and a labels table, from raw
    text (--docs), or from a wide table (--table)."""
    with opened(db, create=True) as database:
        statements, the_kind, params = _training(database, ctx.params)
        info = model.apply_training(database, model_name, statements, the_kind, params).info
    what = "words" if the_kind.source == "tokens" else "features"
    out.print(
        f"{'appended to' if append else 'trained'} {info['kind']} model {model_name!r}: "
        f"{int(info['n_docs'])} documents, "
        f"{info['n_classes']} classes, {info['n_features']} {what}"
    )


@app.command()
def retune(
    db: DbArg,
    model_name: ModelOpt = "default",
    alpha: AlphaOpt = None,
    beta: BetaOpt = None,
    norm: NormOpt = None,
    fit_prior: FitPriorOpt = None,
    class_prior: ClassPriorOpt = None,
    prior_alpha: PriorAlphaOpt = None,
    var_smoothing: VarSmoothingOpt = None,
    sample_variance: SampleVarianceOpt = None,
) -> None:
    """Change a trained model's smoothing, priors or variance smoothing from its stored counts,
    without its training data."""
    with opened(db) as database:
        hyperparameters = dict(
            alpha=alpha,
            beta=beta,
            norm=norm,
            fit_prior=fit_prior,
            class_prior=None if class_prior is None else model.parse_class_prior(class_prior),
            prior_alpha=prior_alpha,
            var_smoothing=var_smoothing,
            sample_variance=sample_variance,
        )
        statements, the_kind, params = model.retune_statements(
            database, model_name, hyperparameters
        )
        model.apply_training(database, model_name, statements, the_kind, params)
    shown = {k: v for k, v in params.items() if k not in ("features", "tokenizer", "pruning")}
    out.print(f"retuned model {model_name!r}: {json.dumps(shown)}", markup=False)


@app.command()
def explain(
    db: DbArg,
    model_name: ModelOpt = "default",
    tokens: TokensOpt = "tokens",
    table: TableOpt = None,
    docs: DocsOpt = None,
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    id_column: IdCol = None,
    text_column: TextCol = "text",
    doc: Annotated[str | None, typer.Option(help="Explain only this document.")] = None,
    top: Annotated[
        int | None, typer.Option(help="Keep the N largest contributions; the rest as (other).")
    ] = None,
    output: Annotated[
        str | None, typer.Option(help="Table to create (doc_id, feature, contribution).")
    ] = None,
    replace: Annotated[bool, typer.Option(help="Replace OUTPUT if it exists.")] = False,
) -> None:
    """Why each document got its label rather than the runner-up: each word's (or feature's)
    contribution, and the prior's; they add up to the log-posterior difference."""
    with opened(db) as database:
        m = model.load(database, model_name)
        data = _data(
            tokens,
            table,
            docs,
            doc_column,
            word_column,
            count_column,
            id_column,
            text_column,
            "label",
        )
        query = m.explanation_query(data, doc=doc, top=top)
        if output is not None:
            n = database.write_table(output, query, replace=replace)
            out.print(f"wrote {n} rows to {output}")
            return
        rows = database.fetch(query)
    shown = Table_("doc_id", "feature", "contribution")
    for doc_id, feature, contribution in sorted(
        rows, key=lambda r: (str(r[0]), r[1] == "(prior)", -abs(r[2] or 0))
    ):
        shown.add_row(str(doc_id), feature, "" if contribution is None else f"{contribution:+.4f}")
    out.print(shown)


@app.command()
def weights(
    db: DbArg,
    output: Annotated[str, typer.Option(help="Table to create (feature, weight).")],
    model_name: ModelOpt = "default",
    replace: Annotated[bool, typer.Option(help="Replace OUTPUT if it exists.")] = False,
) -> None:
    """A two-class text model as a linear classifier: weight per word and a (bias) row."""
    with opened(db) as database:
        m = model.load(database, model_name)
        n = database.write_table(output, m.weights_query(), replace=replace)
    out.print(f"wrote {n} rows to {output}")


@app.command("export")
def export_model(
    db: DbArg,
    to: Annotated[Path, typer.Option("--to", help="Folder to write the Parquet files into.")],
    model_name: ModelOpt = "default",
) -> None:
    """Write a model (counts, hyperparameters, tokenizer, version) as Parquet files."""
    from sqlnb import files

    with opened(db) as database:
        written = files.export_model(database, model_name, to)
    out.print(f"wrote model {model_name!r} to {to} ({len(written)} files)")


@app.command("import")
def import_model(
    db: DbArg,
    path: Annotated[Path, typer.Argument(help="A folder written by sqlnb export.")],
    model_name: Annotated[
        str | None, typer.Option("--model", "-m", help="Name to give it (default: its own).")
    ] = None,
) -> None:
    """Load a model file into any supported engine (replacing a model of that name)."""
    from sqlnb import files

    with opened(db, create=True) as database:
        name = files.import_model(database, path, model_name)
    out.print(f"imported model {name!r}")


@app.command("tune")
def tune_alpha(
    db: DbArg,
    alpha: Annotated[str, typer.Option(help="Alphas to try, comma-separated.")] = (
        "0.01,0.1,0.5,1"
    ),
    folds: Annotated[int, typer.Option(help="Number of cross-validation folds.")] = 5,
    tokens: TokensOpt = "tokens",
    labels: LabelsOpt = None,
    table: TableOpt = None,
    docs: DocsOpt = None,
    kind: KindOpt = None,
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    id_column: IdCol = None,
    text_column: TextCol = "text",
    label_column: LabelCol = "label",
    weight_column: WeightCol = None,
    lowercase: LowercaseOpt = None,
    token_pattern: PatternOpt = None,
    stop_words: StopWordsOpt = None,
    ngrams: NgramsOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print only JSON.")] = False,
) -> None:
    """Choose alpha by k-fold cross-validation in SQL (folds by a hash of doc_id)."""
    try:
        alphas = [float(a) for a in alpha.split(",") if a.strip()]
    except ValueError:
        fail(f"--alpha {alpha!r} is not a comma-separated list of numbers")
    with opened(db) as database:
        data = _data(
            tokens,
            table,
            docs,
            doc_column,
            word_column,
            count_column,
            id_column,
            text_column,
            label_column,
            weight=weight_column,
        )
        result = model.tune(
            database,
            data,
            _labels(labels, table, docs, doc_column, label_column, weight_column),
            alphas=alphas,
            folds=folds,
            kind=None if kind is None else kind,
            tokenizer=_tokenizer(database, lowercase, token_pattern, stop_words, ngrams),
        )
    if as_json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        return
    shown = Table_("alpha", "accuracy", "log-loss", title=f"{folds}-fold cross-validation")
    for r in result["results"]:
        best = " (best)" if r["alpha"] == result["best_alpha"] else ""
        shown.add_row(f"{r['alpha']:g}{best}", f"{r['accuracy']:.4f}", f"{r['log_loss']:.4f}")
    out.print(shown)


@app.command()
def tokenize(
    db: DbArg,
    docs: Annotated[str, typer.Option(help="Table of documents.")],
    output: Annotated[str, typer.Option(help="Tokens table to create.")],
    id_column: IdCol = None,
    text_column: TextCol = "text",
    lowercase: LowercaseOpt = None,
    token_pattern: PatternOpt = None,
    stop_words: StopWordsOpt = None,
    ngrams: NgramsOpt = None,
    replace: Annotated[bool, typer.Option(help="Replace OUTPUT if it exists.")] = False,
) -> None:
    """Write a tokens table (doc_id, word, count) from a table of raw text, in SQL."""
    with opened(db) as database:
        tokenizer = _tokenizer(database, lowercase, token_pattern, stop_words, ngrams)
        n = (tokenizer or Tokenizer()).write(
            database, Docs(docs, id_column or "doc_id", text_column), output, replace=replace
        )
    out.print(f"wrote {n} rows to {output}")


@app.command()
def predict(
    db: DbArg,
    output: Annotated[str, typer.Option(help="Table to create with the predictions.")],
    model_name: ModelOpt = "default",
    tokens: TokensOpt = "tokens",
    table: TableOpt = None,
    docs: DocsOpt = None,
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    id_column: IdCol = None,
    text_column: TextCol = "text",
    proba: Annotated[
        bool, typer.Option(help="One row per (document, class) with log_proba and proba.")
    ] = False,
    replace: Annotated[bool, typer.Option(help="Replace OUTPUT if it exists.")] = False,
    unseen: UnseenOpt = "ignore",
) -> None:
    """Classify every document of a tokens table, --docs table (raw text) or --table into a new
    table (doc_id, label, proba)."""
    with opened(db) as database:
        m = model.load(database, model_name)
        data = _data(
            tokens,
            table,
            docs,
            doc_column,
            word_column,
            count_column,
            id_column,
            text_column,
            "label",
        )
        n = m.predict_to(data, output, proba=proba, replace=replace, unseen=unseen)
    out.print(f"wrote {n} rows to {output}")


@app.command()
def classify(
    db: DbArg,
    table: Annotated[str, typer.Option(help="The table whose rows to classify, in place.")],
    into: Annotated[str, typer.Option(help="Column to write the label into (added if missing).")],
    model_name: ModelOpt = "default",
    id_column: IdCol = None,
    text_column: Annotated[
        str | None, typer.Option(help="Text column of TABLE (raw text, tokenized as the model's).")
    ] = None,
    tokens: Annotated[
        str | None, typer.Option(help="Or: a tokens table whose doc_id matches TABLE's id.")
    ] = None,
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    proba_into: Annotated[
        str | None, typer.Option(help="Column to write the label's probability into.")
    ] = None,
) -> None:
    """Write predicted labels (and probabilities) into columns of your own table, in one
    transaction; every other column and row stays as it was."""
    with opened(db) as database:
        m = model.load(database, model_name)
        id_name = id_column or "id"
        if (text_column is None) == (tokens is None):
            raise_error("give --text-column (raw text) or --tokens (a tokens table)")
        data: Tokens | Docs = (
            Docs(table, id_name, text_column)
            if text_column is not None
            else Tokens(tokens or "tokens", doc_column, word_column, count_column)
        )
        n = m.classify(table, id_name, data, into, proba_into)
    out.print(f"classified {n} rows of {table} into {into}")


def raise_error(message: str) -> NoReturn:
    raise SqlnbError(message)


@app.command()
def evaluate(
    db: DbArg,
    model_name: ModelOpt = "default",
    tokens: TokensOpt = "tokens",
    labels: LabelsOpt = None,
    table: TableOpt = None,
    docs: DocsOpt = None,
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    id_column: IdCol = None,
    text_column: TextCol = "text",
    label_column: LabelCol = "label",
    as_json: Annotated[bool, typer.Option("--json", help="Print only a JSON object.")] = False,
) -> None:
    """Accuracy, per-class precision/recall/F1, macro-F1, log-loss and the confusion matrix."""
    with opened(db) as database:
        m = model.load(database, model_name)
        data = _data(
            tokens,
            table,
            docs,
            doc_column,
            word_column,
            count_column,
            id_column,
            text_column,
            label_column,
        )
        result = m.evaluate(data, _labels(labels, table, docs, doc_column, label_column))
    if as_json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        return
    out.print(
        f"model {model_name!r} on {result['n_docs']} documents: accuracy "
        f"{result['accuracy']:.4f}, macro-F1 {result['macro_f1']:.4f}, "
        f"log-loss {result['log_loss']:.4f}"
    )
    per_class = Table_("label", "precision", "recall", "F1", "support")
    for label, r in result["per_class"].items():
        per_class.add_row(
            label,
            f"{r['precision']:.4f}",
            f"{r['recall']:.4f}",
            f"{r['f1']:.4f}",
            str(r["support"]),
        )
    out.print(per_class)
    labels_seen = list(result["per_class"])
    counts = {(c["true"], c["predicted"]): c["count"] for c in result["confusion"]}
    matrix = Table_("true \\ predicted", *labels_seen, title="confusion matrix")
    for t in labels_seen:
        matrix.add_row(t, *(str(counts.get((t, p), 0)) for p in labels_seen))
    out.print(matrix)


@app.command()
def show(
    db: DbArg,
    model_name: ModelOpt = "default",
    top: Annotated[int, typer.Option(help="Most indicative words per class.")] = 10,
) -> None:
    """A model's classes, priors and counts; its most indicative words per class (text), or
    its per-class means, variances and category probabilities (tables)."""
    with opened(db) as database:
        m = model.load(database, model_name)
        classes, words = m.classes(), m.top_words(top)
        gaussian, categories = m.gaussian(), m.categories()
    out.print(f"model {m.name!r}: {m.kind_name}, {json.dumps(m.params)}")
    table = Table_("label", "documents", "prior", "log prior")
    for c in classes:
        lp = c["log_prior"]
        prior = "0" if lp is None else f"{math.exp(lp):.4f}"
        table.add_row(c["label"], f"{c['n_docs']:g}", prior, "-inf" if lp is None else f"{lp:.4f}")
    out.print(table)
    if words:
        by_class: dict[str, list[str]] = {}
        for w in words:
            by_class.setdefault(w["label"], []).append(w["word"])
        indicative = Table_("label", f"top {top} words", title="most indicative words")
        for label, ws in by_class.items():
            indicative.add_row(label, ", ".join(ws))
        out.print(indicative)
    if gaussian:
        normal = Table_("feature", "label", "mean", "variance", title="Gaussian features")
        for g in gaussian:
            normal.add_row(g["feature"], g["label"], f"{g['mean']:.6g}", f"{g['var']:.6g}")
        out.print(normal)
    if categories:
        cats = Table_("feature", "value", "label", "probability", title="categorical features")
        for c in categories:
            cats.add_row(c["feature"], c["value"], c["label"], f"{c['probability']:.4f}")
        out.print(cats)


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
    table = Table_(
        "model", "kind", "hyperparameters", "classes", "documents", "features", "trained at"
    )
    for r in rows:
        params = {k: v for k, v in r["params"].items() if k != "features"}
        table.add_row(
            r["model"],
            r["kind"],
            json.dumps(params),
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


@app.command()
def report(
    db: DbArg,
    model_name: ModelOpt = "default",
    tokens: TokensOpt = "tokens",
    labels: LabelsOpt = None,
    table: TableOpt = None,
    docs: DocsOpt = None,
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    id_column: IdCol = None,
    text_column: TextCol = "text",
    label_column: LabelCol = "label",
    html: Annotated[
        Path, typer.Option("--html", help="HTML file to write (self-contained).")
    ] = Path("report.html"),
) -> None:
    """Write one self-contained HTML file: metrics, confusion matrix, per-class bars,
    calibration, indicative words or features, misclassified documents, the model."""
    with opened(db) as database:
        m = model.load(database, model_name)
        data = _data(
            tokens,
            table,
            docs,
            doc_column,
            word_column,
            count_column,
            id_column,
            text_column,
            label_column,
        )
        numbers = write_report(
            m, data, _labels(labels, table, docs, doc_column, label_column), html
        )
    out.print(
        f"wrote {html}: model {model_name!r} on {numbers['n_docs']} documents, accuracy "
        f"{numbers['accuracy']:.4f}, macro-F1 {numbers['macro_f1']:.4f}, log-loss "
        f"{numbers['log_loss']:.4f}, Brier {numbers['brier']:.4f}",
        markup=False,
        soft_wrap=True,
    )


# --- sql -------------------------------------------------------------------------------------


def _print_script(statements: list[Any], dialect_name: str, *, transaction: bool) -> None:
    d = engine.dialect(dialect_name)  # an unknown dialect is a one-line error
    if transaction and d.begin:
        statements = [d.begin, *statements, d.commit or "COMMIT"]
    sys.stdout.write(engine.script(statements, dialect_name))


@sql_app.command("train")
def sql_train(
    ctx: typer.Context,
    db: DbArg,
    dialect: DialectOpt = "duckdb",
    tokens: TokensOpt = "tokens",
    labels: LabelsOpt = None,
    table: TableOpt = None,
    docs: DocsOpt = None,
    model_name: ModelOpt = "default",
    kind: KindOpt = None,
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    id_column: IdCol = None,
    text_column: TextCol = "text",
    label_column: LabelCol = "label",
    features: FeaturesOpt = None,
    gaussian: GaussianOpt = None,
    categorical: CategoricalOpt = None,
    alpha: AlphaOpt = None,
    beta: BetaOpt = None,
    norm: NormOpt = None,
    fit_prior: FitPriorOpt = None,
    class_prior: ClassPriorOpt = None,
    prior_alpha: PriorAlphaOpt = None,
    var_smoothing: VarSmoothingOpt = None,
    sample_variance: SampleVarianceOpt = None,
    lowercase: LowercaseOpt = None,
    token_pattern: PatternOpt = None,
    stop_words: StopWordsOpt = None,
    ngrams: NgramsOpt = None,
    min_df: MinDfOpt = None,
    max_df: MaxDfOpt = None,
    max_features: MaxFeaturesOpt = None,
    weight_column: WeightCol = None,
    append: Annotated[
        bool, typer.Option("--append", help="Add this data's counts to the existing model.")
    ] = False,
) -> None:
    """Print the SQL script that `sqlnb train` would run."""
    with opened(db) as database:
        engine.dialect(dialect)
        statements, _, _ = _training(database, ctx.params)
        _print_script(statements, dialect, transaction=True)


@sql_app.command("predict")
def sql_predict(
    db: DbArg,
    output: Annotated[str, typer.Option(help="Table the script creates.")],
    dialect: DialectOpt = "duckdb",
    model_name: ModelOpt = "default",
    tokens: TokensOpt = "tokens",
    table: TableOpt = None,
    docs: DocsOpt = None,
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    id_column: IdCol = None,
    text_column: TextCol = "text",
    proba: Annotated[bool, typer.Option(help="One row per (document, class).")] = False,
) -> None:
    """Print the SQL script that `sqlnb predict` would run."""
    with opened(db) as database:
        engine.dialect(dialect)
        m = model.load(database, model_name)
        data = _data(
            tokens,
            table,
            docs,
            doc_column,
            word_column,
            count_column,
            id_column,
            text_column,
            "label",
        )
        statements = m.prediction_statements(data, output, proba=proba, replace=True, guard=False)
        _print_script(statements, dialect, transaction=False)


@sql_app.command("evaluate")
def sql_evaluate(
    db: DbArg,
    dialect: DialectOpt = "duckdb",
    model_name: ModelOpt = "default",
    tokens: TokensOpt = "tokens",
    labels: LabelsOpt = None,
    table: TableOpt = None,
    docs: DocsOpt = None,
    doc_column: DocCol = "doc_id",
    word_column: WordCol = "word",
    count_column: CountCol = None,
    id_column: IdCol = None,
    text_column: TextCol = "text",
    label_column: LabelCol = "label",
) -> None:
    """Print the SQL script that `sqlnb evaluate` would run (confusion, per class, summary)."""
    with opened(db) as database:
        engine.dialect(dialect)
        m = model.load(database, model_name)
        data = _data(
            tokens,
            table,
            docs,
            doc_column,
            word_column,
            count_column,
            id_column,
            text_column,
            label_column,
        )
        create, queries, drop_it = m.evaluation_statements(
            data, _labels(labels, table, docs, doc_column, label_column), guard=False
        )
        _print_script([drop_it, create, *queries, drop_it], dialect, transaction=False)
