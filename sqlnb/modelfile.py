"""What a model file may hold: every part checked against what sqlnb itself writes, before
anything is written (:func:`sqlnb.files.import_model` reads a file through it).

The rules are declared beside their writers and read from there: each count table's rows by its
:class:`~sqlnb.kinds.base.ModelTable` (keys, amounts, finite and whole numbers, the values a
column takes, one row; :func:`sqlnb.catalog.flaws`), the hyperparameters by their declarations
(:mod:`sqlnb.kinds.params`: type and range), the other settings by :data:`SETTINGS` (each
with the inputs whose training writes it), the label types by :data:`LABEL_TYPES`, the tables'
agreement with each other by the kind (:meth:`~sqlnb.kinds.base.Checks.file`: TF-IDF's
document frequencies) and a calibration's pieces by :func:`sqlnb.calibration.flaw`. The catalog
row's ``n_docs``, ``n_features``, ``trained_at`` and ``version`` are written anew by the import
(from the counts, and the importing sqlnb).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import labels, multilabel
from sqlnb.catalog import CALIBRATION, CLASSES
from sqlnb.classes import check_class_prior
from sqlnb.engine.dialects import TYPE_NAMES
from sqlnb.errors import SqlnbError
from sqlnb.features import Selection
from sqlnb.inputs import INTEGERS, Docs, Table, Tokens
from sqlnb.kinds import Kind, kind
from sqlnb.kinds.params import PRIOR_DEFAULTS, declared, resolved
from sqlnb.pruning import Pruning
from sqlnb.tokenizer import Tokenizer

if TYPE_CHECKING:
    from sqlnb.engine import Database

# params -> em -> history -> an iteration -> its shares: the deepest JSON sqlnb writes
MAX_DEPTH = 5
# The label types sqlnb records: the engines' scalar types in DuckDB's spelling (duckdb_type,
# clickhouse._clickhouse_type), and DECIMAL(p, s) or VARCHAR(n) (SIZED_TYPE)
LABEL_TYPES = frozenset(
    {*TYPE_NAMES.values(), *INTEGERS, "REAL", "TIME", "TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ"}
    | {"TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS", "TIMESTAMP_NTZ", "BLOB", "BYTEA"}
)
SIZED_TYPE = re.compile(r"(DECIMAL|NUMERIC)\(\d{1,2}, ?\d{1,2}\)|VARCHAR\(\d{1,10}\)")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _keys(value: Any, keys: set[str], what: str) -> dict[str, Any]:
    """``value``, a JSON object of exactly ``keys``."""
    if not isinstance(value, dict) or set(value) != keys:
        raise SqlnbError(f"{what} {value!r} are not an object of {', '.join(sorted(keys))}")
    return value


def _tokenizer(value: Any) -> None:
    settings = _keys(value, {"lowercase", "pattern", "stop_words", "ngrams"}, "tokenizer settings")
    ngrams, stop = settings["ngrams"], settings["stop_words"]
    if not (isinstance(ngrams, list) and len(ngrams) == 2 and all(map(_whole, ngrams))):
        raise SqlnbError(f"tokenizer n-grams {ngrams!r} are not two whole numbers")
    if not (isinstance(stop, list) and all(isinstance(w, str) for w in stop)):
        raise SqlnbError(f"tokenizer stop words {stop!r} are not a list of words")
    Tokenizer.from_dict(settings)


def _pruning(value: Any) -> None:
    settings = _keys(value, {"min_df", "max_df", "max_features"}, "pruning settings")
    most = settings["max_features"]
    if not (all(_number(settings[k]) for k in ("min_df", "max_df"))) or not (
        most is None or _whole(most)
    ):
        raise SqlnbError(f"pruning settings {value!r} are not numbers")
    Pruning(**settings)


def _select(value: Any) -> None:
    if not isinstance(value, str):
        raise SqlnbError(f"select {value!r} is not chi2:N or mutual-info:N")
    Selection.parse(value)


def _em(value: Any) -> None:
    from sqlnb.semisupervised import EM  # (it imports training, which imports sqlnb.files)

    keys = {"unlabeled", "weight", "iterations", "tolerance", "history"}
    settings = _keys(value, keys, "EM settings")
    weight, iterations, tolerance = (settings[k] for k in ("weight", "iterations", "tolerance"))
    if not (isinstance(settings["unlabeled"], str) and _number(weight) and _number(tolerance)):
        raise SqlnbError(f"EM settings {value!r} are not a table name and numbers")
    if not _whole(iterations):
        raise SqlnbError(f"EM iterations {iterations!r} are not a whole number")
    EM(Tokens(settings["unlabeled"]), weight, iterations, tolerance)
    history = settings["history"]
    if not isinstance(history, list) or not 1 <= len(history) <= iterations + 1:
        raise SqlnbError(f"EM history of {iterations} iterations is not a list of them")
    for step in history:
        step = _keys(step, {"iteration", "log_likelihood", "shares"}, "an EM iteration's values")
        shares = step["shares"]
        if not (
            _whole(step["iteration"])
            and _number(step["log_likelihood"])
            and isinstance(shares, dict)
            and all(_number(p) and 0 <= p <= 1 for p in shares.values())
        ):
            raise SqlnbError(f"EM iteration {step!r} is not a number, a log-likelihood, shares")


def _class_sizes(value: Any) -> None:
    if not (
        isinstance(value, dict) and value and all(_whole(n) and n >= 1 for n in value.values())
    ):
        raise SqlnbError(f"class sizes {value!r} are not whole numbers >= 1 per label")


def _separator(value: Any) -> None:
    if not isinstance(value, str) or not value:
        raise SqlnbError(f"hierarchy separator {value!r} is not a non-empty text")


def _confidence(value: Any) -> None:
    labels.checked(value)


def _threshold(value: Any) -> None:
    multilabel.checked(value)


def _multi_label(value: Any) -> None:
    if value is not True:
        raise SqlnbError(f"multi_label {value!r} is not true (sqlnb writes it for such models)")


# The settings a model's params hold besides its kind's hyperparameters: each one's check and
# the inputs whose training writes it (a kind that reads none of them never has it).
SETTINGS: dict[str, tuple[Callable[[Any], None], tuple[type, ...]]] = {
    "tokenizer": (_tokenizer, (Docs,)),
    "pruning": (_pruning, (Docs,)),
    "select": (_select, (Tokens, Docs)),
    "em": (_em, (Tokens, Docs)),
    "class_sizes": (_class_sizes, (Tokens, Docs, Table)),
    "features": (lambda value: None, (Table,)),  # the kind's checks.settings reads them
    "hierarchy": (_separator, (Tokens, Docs, Table)),
    "confidence": (_confidence, (Tokens, Docs, Table)),
    "multi_label": (_multi_label, (Tokens, Docs)),
    "threshold": (_threshold, (Tokens, Docs)),
}


def settings(text: str, the_kind: Kind) -> dict[str, Any]:
    """A model file's params (JSON), each part checked as sqlnb writes it: nested at most
    :data:`MAX_DEPTH` deep, finite numbers only, the kind's hyperparameters within their
    declared ranges and the other settings (:data:`SETTINGS`) as their training writes them;
    anything else is refused."""
    bare = STRING.sub('""', text)  # brackets inside strings do not nest
    depth = deepest = 0
    for char in bare:
        depth += (char in "[{") - (char in "]}")
        deepest = max(deepest, depth)
    if deepest > MAX_DEPTH:
        raise SqlnbError(f"its settings (params) nest {deepest} deep (sqlnb writes {MAX_DEPTH})")

    def constant(name: str) -> float:
        raise SqlnbError(f"its settings (params) hold {name}: sqlnb writes finite numbers")

    try:
        params = json.loads(text, parse_constant=constant)
    except ValueError as error:
        raise SqlnbError(f"its settings (params) are not JSON: {error}") from None
    if not isinstance(params, dict):
        raise SqlnbError("its settings (params) are not a JSON object")
    _finite(params)
    known = {*declared(the_kind), *PRIOR_DEFAULTS}
    for name, value in params.items():
        if name in known:
            continue
        check, writers = SETTINGS.get(name, (None, ()))
        if check is None or not any(r in the_kind.reads for r in writers):
            raise SqlnbError(f"its settings (params) hold {name!r}, which sqlnb does not write")
        if value is not None:
            check(value)
    given = {k: params.get(k) for k in declared(the_kind)}
    params = {**params, **resolved(the_kind, given)}
    the_kind.checks.settings(params)
    if params.get("class_sizes") is not None and params["class_weight"] != "balanced":
        raise SqlnbError("its settings hold class sizes, which only 'balanced' weights record")
    return params


def _finite(value: Any) -> None:
    """Refuse a number that is not finite anywhere in parsed JSON (``1e999`` reads as inf)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise SqlnbError(f"its settings (params) hold {value}: sqlnb writes finite numbers")
    for inner in (
        value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    ):
        _finite(inner)


def described(info: dict[str, str], where: str) -> tuple[Kind, dict[str, Any], int]:
    """The kind, the settings and the number of classes of a model file's catalog row
    (sqlnb_models.parquet, as text), each checked against what sqlnb writes."""
    try:
        the_kind = kind(info.get("kind", ""))
        params = settings(info.get("params", ""), the_kind)
        label_type = info.get("label_type", "")
        if label_type not in LABEL_TYPES and not SIZED_TYPE.fullmatch(label_type):
            raise SqlnbError(f"label_type {label_type!r} is not a type sqlnb records")
        for column, low in (("n_classes", 1), ("n_features", 0)):
            text = info.get(column, "")
            if not text.isdigit() or int(text) < low:
                raise SqlnbError(f"{column} {text!r} is not a whole number >= {low}")
        n_docs = info.get("n_docs", "")
        try:
            number = float(n_docs)
        except ValueError:
            number = math.nan
        if not (math.isfinite(number) and number >= 0):
            raise SqlnbError(f"n_docs {n_docs!r} is not a finite number >= 0")
    except SqlnbError as error:
        raise SqlnbError(f"{where}: {error}") from None
    return the_kind, params, int(info["n_classes"])


def agree(
    db: Database, the_kind: Kind, params: dict[str, Any], staged: dict[str, exp.Table], where: str
) -> None:
    """Refuse a model file whose parts, each valid (:func:`described`, the tables' own
    rules), disagree with each other where sqlnb writes them in agreement: the given class
    priors and recorded class sizes name the classes (priors summing to 1), the documents
    weigh more than 0, the kind's tables agree (TF-IDF), the calibration's pieces are ones
    :func:`sqlnb.calibration.fit` writes."""
    classes = staged[CLASSES.name]
    labels = [
        str(label)
        for (label,) in db.fetch(
            exp.select(exp.cast(exp.column("label"), "VARCHAR").as_("label")).from_(classes.copy())
        )
    ]
    documents = exp.Sum(this=exp.column("n_docs")).as_("n_docs")
    total = db.fetch(exp.select(documents).from_(classes.copy()))[0][0]
    problem: str | None = None
    try:
        check_class_prior(params["class_prior"], labels)
    except SqlnbError as error:
        problem = str(error)
    sizes = params.get("class_sizes")
    if problem is None and sizes is not None and set(sizes) != set(labels):
        problem = f"class sizes of {sorted(sizes)!r}, not of the classes {sorted(labels)!r}"
    if problem is None and not (total and float(total) > 0):
        problem = f"{CLASSES.name}.parquet's documents weigh {total or 0:g}: a model of none"
    problem = problem or the_kind.checks.file(db, staged, params)
    fitted = staged.get(CALIBRATION.name)
    if problem is None and fitted is not None:
        rows = db.fetch(exp.select("method", *CALIBRATION.columns[1:]).from_(fitted.copy()))
        if rows:  # the calibration's rules, read only for a calibrated model's file
            from sqlnb import calibration

            pieces = [(int(r[1]), *(float(v) for v in r[2:])) for r in rows]
            found = calibration.flaw(str(rows[0][0]), pieces)  # type: ignore[arg-type]
            problem = found and f"{CALIBRATION.name}.parquet has {found}"
    if problem is not None:
        raise SqlnbError(f"{where}: {problem}")
