"""Every option of the command line, declared once, and the groups that build sqlnb's objects
from them: where the data comes from (:data:`DATA`), its labels (:data:`LABELS`), the
hyperparameters (:data:`HYPER`), the tokenizer (:data:`TOKENIZER`), vocabulary pruning
(:data:`PRUNING`). A command names a group as a parameter's default; :func:`expand` puts the
group's options in the command's signature and hands the command the object they build.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar, cast

import typer

from sqlnb import settings
from sqlnb.cli.console import errors, waiting
from sqlnb.engine import DIALECTS, Database
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Docs, Labels, Source, Table, Tokens
from sqlnb.kinds import KINDS, params
from sqlnb.pruning import Pruning
from sqlnb.settings import FLAG, INTEGER, NUMBER, Setting
from sqlnb.tokenizer import Tokenizer, parse_ngrams, stop_word_list

Values = dict[str, Any]
T = TypeVar("T")
KEYWORD = inspect.Parameter.KEYWORD_ONLY

DbArg = Annotated[
    str,
    typer.Argument(
        help="DuckDB file, sqlite:///path.db, postgresql://..., or spark://MASTER.",
        metavar="DB",
    ),
]
ModelOpt = Annotated[str, typer.Option("--model", "-m", help="Model name.")]
KindOpt = Annotated[
    str | None,
    typer.Option(
        help=f"Model kind: {', '.join(KINDS)} (default: multinomial; with --table, mixed)."
    ),
]
DialectOpt = Annotated[str, typer.Option(help=f"SQL dialect to print: {', '.join(DIALECTS)}.")]
# One command's settings (sqlnb.settings): their help from the declarations, their defaults
# the declared ones (None: not given, the default).
UnseenOpt = Annotated[str, typer.Option(help=settings.UNSEEN.help)]
SelectOpt = Annotated[str | None, typer.Option(help=settings.SELECT.help)]
EmWeightOpt = Annotated[float | None, typer.Option(help=settings.EM_WEIGHT.help)]
EmIterationsOpt = Annotated[int | None, typer.Option(help=settings.EM_ITERATIONS.help)]
EmToleranceOpt = Annotated[float | None, typer.Option(help=settings.EM_TOLERANCE.help)]
MethodOpt = Annotated[str, typer.Option(help=settings.METHOD.help)]
AlphasOpt = Annotated[str, typer.Option(help=settings.ALPHAS.help)]
FoldsOpt = Annotated[int, typer.Option(help=settings.FOLDS.help)]
HierarchyOpt = Annotated[str | None, typer.Option(metavar="SEP", help=settings.HIERARCHY.help)]
ConfidenceOpt = Annotated[float | None, typer.Option(help=settings.CONFIDENCE.help)]
MultiLabelOpt = Annotated[
    bool, typer.Option("--multi-label/--no-multi-label", help=settings.MULTI_LABEL.help)
]
ThresholdOpt = Annotated[float | None, typer.Option(metavar="T", help=settings.THRESHOLD.help)]
ReplaceOpt = Annotated[bool, typer.Option(help="Replace OUTPUT if it exists.")]
UncalibratedOpt = Annotated[
    bool, typer.Option(help="The model's own probabilities, not its calibrated ones.")
]
PriorsOpt = Annotated[
    str | None,
    typer.Option(
        help="New class priors: 'spam=0.2,ham=0.8', or 'estimate' (EM on these documents)."
    ),
]
CostsOpt = Annotated[
    str | None,
    typer.Option(help="Table (actual, predicted, cost): label each document by least cost."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print only a JSON object.")]


class ClosedOutput(Exception):
    """The reader of stdout closed it early (``sqlnb predict ... | head``)."""


def _opt(annotation: Any, *decls: str, help: str) -> Any:
    return Annotated[annotation, typer.Option(*decls, help=help)]


# Every shared option: name -> (annotation, default).
OPTIONS: dict[str, tuple[Any, Any]] = {
    "tokens": (_opt(str, help="Tokens table, view or Parquet file."), "tokens"),
    "labels": (
        _opt(
            str | None,
            help="Labels table, view or Parquet file (default: labels; with --table or "
            "--docs, the table's own label column).",
        ),
        None,
    ),
    "table": (_opt(str | None, help="Wide table (one row per example) instead of tokens."), None),
    "docs": (_opt(str | None, help="Table of raw text documents."), None),
    "doc_column": (_opt(str, help="Document id column."), "doc_id"),
    "word_column": (_opt(str, help="Word column of the tokens table."), "word"),
    "count_column": (
        _opt(
            str | None, help="Count column of the tokens table (default: count if present, else 1)."
        ),
        None,
    ),
    "id_column": (
        _opt(
            str | None,
            help="Id column of the --table (default: id) or --docs table (default: doc_id).",
        ),
        None,
    ),
    "text_column": (_opt(str, help="Text column of the --docs table."), "text"),
    "label_column": (_opt(str, help="Label column of the labels table (or --table)."), "label"),
    "features": (
        _opt(str | None, help="Feature columns of --table, comma-separated (default: all)."),
        None,
    ),
    "gaussian": (_opt(str | None, help="Columns to model as Gaussian."), None),
    "categorical": (_opt(str | None, help="Columns to model as categorical."), None),
    "weight_column": (
        _opt(
            str | None, help="Sample-weight column of the labels table (or --table / --docs table)."
        ),
        None,
    ),
}


@dataclass(frozen=True)
class Group(Generic[T]):
    """Options (names of :data:`OPTIONS`) that build one object from their values; ``build``
    may read any option of the command (its other groups' too)."""

    names: tuple[str, ...]
    build: Callable[[Values], T]


def uses(group: Group[T]) -> T:
    """A command parameter's default that stands for ``group``: the command gets the object
    the group's options build (see :func:`expand`)."""
    return cast(T, group)


def _names(text: str | None) -> tuple[str, ...]:
    return tuple(n.strip() for n in text.split(",") if n.strip()) if text else ()


def _source(o: Values) -> Source:
    """The input: a wide table with --table, raw text with --docs, else a tokens table."""
    if o.get("table") is not None and o.get("docs") is not None:
        raise SqlnbError("give --table or --docs, not both")
    label, weight = o.get("label_column", "label"), o.get("weight_column")
    if o.get("table") is not None:
        return Table(
            o["table"],
            o["id_column"] or "id",
            label,
            _names(o.get("features")) or None,
            _names(o.get("gaussian")),
            _names(o.get("categorical")),
            weight,
        )
    if o.get("docs") is not None:
        return Docs(o["docs"], o["id_column"] or "doc_id", o["text_column"], label, weight)
    return Tokens(o["tokens"], o["doc_column"], o["word_column"], o["count_column"])


def _labels(o: Values) -> Labels:
    """The labels table, or (without --labels) the data's own: see :func:`labels_for`."""
    return Labels(o["labels"], o["doc_column"], o["label_column"], o.get("weight_column"))


def _setting(s: Setting) -> tuple[Any, Any]:
    """A setting's option, from its declaration (:mod:`sqlnb.settings`, a hyperparameter's
    :mod:`sqlnb.kinds.params`); None (not given) stands for its default."""
    if s.value == FLAG:
        return _opt(bool | None, f"{s.flag}/{s.negative}", help=s.help), None
    if s.value == NUMBER:
        return _opt(float | None, help=s.help), None
    if s.value == INTEGER:
        return _opt(int | None, help=s.help), None
    return _opt(str | None, help=s.help), None


# The settings of the tokenizer and of pruning, in their groups (see below), and --wait, of
# every command that opens a database (see expand).
OPTIONS.update({s.name: _setting(s) for s in (*settings.TOKENIZER, *settings.PRUNING)})
OPTIONS["wait"] = _setting(settings.WAIT)

# Every kind's hyperparameters, each an option (None: not given, the kind's default).
HYPERPARAMETERS = params.every(KINDS.values())
OPTIONS.update({name: _setting(h) for name, h in HYPERPARAMETERS.items()})


@dataclass(frozen=True)
class TokenizerOptions:
    """The tokenizer options as given; a stop-word table is read from the database."""

    lowercase: bool | None
    pattern: str | None
    stop_words: str | None
    ngrams: str | None

    def resolve(self, db: Database) -> Tokenizer | None:
        """The tokenizer, or None when no option was given (the default one then applies)."""
        if all(v is None for v in (self.lowercase, self.pattern, self.stop_words, self.ngrams)):
            return None
        table = self.stop_words if self.stop_words not in (None, "english") else None
        return Tokenizer(
            settings.LOWERCASE.given(self.lowercase),
            self.pattern or settings.TOKEN_PATTERN.default,
            stop_word_list(db, self.stop_words),
            parse_ngrams(self.ngrams) if self.ngrams else settings.NGRAMS.default,
            stop_table=table,
        )


def _tokenizer(o: Values) -> TokenizerOptions:
    return TokenizerOptions(o["lowercase"], o["token_pattern"], o["stop_words"], o["ngrams"])


SOURCE = Group(
    (
        "tokens",
        "table",
        "docs",
        "doc_column",
        "word_column",
        "count_column",
        "id_column",
        "text_column",
    ),
    _source,
)
LABELED = Group((*SOURCE.names, "label_column"), _source)  # evaluate, report
WEIGHTED = Group((*LABELED.names, "weight_column"), _source)  # tune
DATA = Group((*WEIGHTED.names, "features", "gaussian", "categorical"), _source)  # train
TRUTH = Group(("labels", "doc_column", "label_column"), _labels)  # evaluate, report
LABELS = Group((*TRUTH.names, "weight_column"), _labels)  # train, tune
HYPER = Group(
    tuple(HYPERPARAMETERS),
    lambda o: {n: o[n] for n in HYPERPARAMETERS if o.get(n) is not None},
)
# tune's: every hyperparameter but the alpha it tries (a list there), fixed for every fold
FIXED = Group(
    tuple(n for n in HYPERPARAMETERS if n != "alpha"),
    lambda o: {n: o[n] for n in HYPERPARAMETERS if n != "alpha" and o.get(n) is not None},
)
TOKENIZER = Group(tuple(s.name for s in settings.TOKENIZER), _tokenizer)
PRUNING = Group(
    tuple(s.name for s in settings.PRUNING),
    lambda o: Pruning.parse(o["min_df"], o["max_df"], o["max_features"]),
)


def expand(
    fn: Callable[..., Any],
    *,
    skip: tuple[str, ...] = (),
    overrides: dict[str, tuple[Any, Any]] | None = None,
) -> Callable[..., Any]:
    """``fn`` with each parameter whose default is a :class:`Group` replaced by the group's
    options (each declared once), and called with the object the group builds (inside the
    command line's error handling). Parameters in ``skip`` are left out (they keep their
    defaults); ``overrides`` gives parameters another (annotation, default)."""
    signature = inspect.signature(fn, eval_str=True)
    overrides = overrides or {}
    own = {p.name for p in signature.parameters.values() if not isinstance(p.default, Group)}
    params: list[inspect.Parameter] = []
    groups: dict[str, Group[Any]] = {}
    for p in signature.parameters.values():
        if isinstance(p.default, Group):
            groups[p.name] = p.default
            for name in p.default.names:
                if name in own or any(q.name == name for q in params):
                    continue
                annotation, default = OPTIONS[name]
                params.append(
                    inspect.Parameter(name, KEYWORD, default=default, annotation=annotation)
                )
        elif p.name in overrides:
            annotation, default = overrides[p.name]
            params.append(p.replace(annotation=annotation, default=default, kind=KEYWORD))
        elif p.name not in skip:
            params.append(p.replace(kind=KEYWORD))

    if "db" in own:  # a command that opens a database waits for it as long as told
        annotation, default = OPTIONS["wait"]
        params.append(inspect.Parameter("wait", KEYWORD, default=default, annotation=annotation))

    @functools.wraps(fn)
    def wrapper(**values: Any) -> Any:
        with errors():
            built = {name: group.build(values) for name, group in groups.items()}
        with waiting(values.get("wait")):
            try:
                return fn(**{k: v for k, v in values.items() if k in own}, **built)
            except BrokenPipeError:  # not an OSError for Click, which exits 1 on one
                raise ClosedOutput from None

    wrapper.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper


def renamed(old: str, new: str, given: str | None, value: str | None) -> str | None:
    """A renamed option's old name, kept for a release: its ``given`` value stands for the new
    option's (both given: an error), with a one-line deprecation note on stderr."""
    if given is None:
        return value
    if value is not None:
        raise typer.BadParameter(f"{old} is the old name of {new}: give {new} alone")
    sys.stderr.write(f"Deprecated: {old} is now {new}; {old} will be removed in a later release\n")
    return given
