"""Every user setting, declared once: its name (``--name`` on the command line), kind of value,
default, range or choices, help, the README's text, and the message that refuses a bad value.
The command line's options, the API's keywords and defaults, the checks and the README's
tables come from these declarations; the hyperparameters (:mod:`sqlnb.kinds.params`) are
settings too, with where the paths use them.

>>> EM_ITERATIONS.default, EM_ITERATIONS.check(3)
(10, 3)
>>> EM_WEIGHT.check(-1)
Traceback (most recent call last):
...
sqlnb.errors.SqlnbError: --em-weight must be a finite number >= 0, not -1
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral
from typing import Any

from sqlnb.errors import SqlnbError

# What a setting takes (Setting.value); a hyperparameter may also take a prior or weights.
NUMBER, INTEGER, FLAG, CHOICE, TEXT = "number", "integer", "flag", "choice", "text"


@dataclass(frozen=True)
class Setting:
    """One setting.

    ``value`` is what it takes: a ``number`` (finite, at least ``low``; above it where
    ``strict``), an ``integer`` (at least ``low``), a ``flag`` (true or false), a ``choice``
    (one of ``choices``) or ``text`` that its own reader parses (a pattern, a range, a list).
    ``default`` None means what ``help`` says. ``doc`` is the README's text (``help`` where
    None), ``usage`` the README's option (from the flag and ``metavar`` where empty),
    ``keyword`` the API's keyword where it is not ``name``, ``message`` the refusal of a bad
    value (a format of ``name``, ``flag``, ``bound``, ``choices`` and ``value``)."""

    name: str
    value: str
    default: Any
    help: str
    doc: str | None = None
    low: float = 0.0
    strict: bool = False
    choices: tuple[str, ...] = ()
    metavar: str = ""
    off: str = ""  # a flag's negative option, if not --no-<name>
    usage: str = ""
    keyword: str = ""
    message: str = ""

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def negative(self) -> str:
        """A flag's option that sets it false."""
        return self.off or f"--no-{self.flag[2:]}"

    @property
    def written(self) -> Any:
        """The default as the command line writes it (a list of numbers: ``0.01,0.1,0.5,1``)."""
        return listed(self.default) if isinstance(self.default, tuple) else self.default

    @property
    def option(self) -> str:
        """How the README's table of hyperparameters writes the option: ``--alpha A``,
        ``--norm / --no-norm``."""
        if self.value == FLAG:
            return f"{self.flag} / {self.negative}"
        return f"{self.flag} {self.metavar or self.name[0].upper()}"

    def refuse(self, value: Any, default: str) -> SqlnbError:
        """The error that refuses ``value``: the declared message, else ``default`` (both
        formats of the setting's name, flag, bound, choices and the value)."""
        strict = ">" if self.strict else ">="
        return SqlnbError(
            (self.message or default).format(
                name=self.name,
                flag=self.flag,
                bound=f"{strict} {self.low:g}",
                choices=", ".join(self.choices),
                value=value,
            )
        )

    def check(self, value: Any) -> Any:
        """The value, checked; a clear error naming the setting otherwise (``text`` is
        checked by its reader)."""
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if self.value == NUMBER:
            above = number and (value > self.low if self.strict else value >= self.low)
            if not number or not math.isfinite(value) or not above:
                raise self.refuse(value, "{name} must be a finite number {bound}, not {value!r}")
            return value
        if self.value == INTEGER:
            if not isinstance(value, Integral) or isinstance(value, bool) or value < self.low:
                raise self.refuse(value, "{name} must be a whole number {bound}, not {value!r}")
            return value
        if self.value == FLAG:
            if not isinstance(value, bool):
                raise self.refuse(value, "{name} must be true or false, not {value!r}")
            return value
        if self.value == CHOICE and value not in self.choices:
            raise self.refuse(value, "{name} must be one of {choices}, not {value!r}")
        return value

    def given(self, value: Any) -> Any:
        """``value`` checked, or the default where it is None (not given)."""
        return self.default if value is None else self.check(value)


# --- the tokenizer (sqlnb.tokenizer.Tokenizer) ---------------------------------------------

LOWERCASE = Setting(
    "lowercase",
    FLAG,
    True,
    "Lowercase first (default: on).",
    "lowercase before matching (default on)",
    usage="`--lowercase` / `--no-lowercase`",
    message="lowercase must be true or false, not {value!r}",
)
TOKEN_PATTERN = Setting(
    "token_pattern",
    TEXT,
    r"[\pL\pN]+(?:'[\pL\pN]+)*",  # runs of Unicode letters and digits, apostrophes inside
    "Token regular expression (RE2) (default: runs of Unicode letters and digits, "
    "apostrophes inside words).",
    r"the token regular expression, RE2 syntax; default `[\pL\pN]+(?:'[\pL\pN]+)*`: runs of "
    "Unicode letters and digits (`mc²`, `½`, `١٠`), apostrophes inside words (`it's`, "
    "`o'clock`). Combining marks split words there, as scikit-learn's `\\w` does (`हिन्दी` gives "
    r"`ह`, `न`, `द`); `[\pL\pM\pN]+(?:'[\pL\pM\pN]+)*` keeps them (`हिन्दी`, `שָׁלוֹם`, `café` "
    "written with U+0301)",
    usage="`--token-pattern RE`",
    keyword="pattern",
)
STOP_WORDS = Setting(
    "stop_words",
    TEXT,
    (),
    "'english' (scikit-learn's list) or a table with one column 'word'.",
    "drop stop words before n-grams: scikit-learn's `stop_words='english'` list (shipped in "
    "`sqlnb/stop_words.py`), or a table with one column `word` (training joins it; a list "
    "longer than the English one is kept in `sqlnb_stop_words`, keyed by its fingerprint, "
    "which later queries join: the words are never pasted into the SQL)",
    usage="`--stop-words english` / `--stop-words TABLE`",
)
NGRAMS = Setting(
    "ngrams",
    TEXT,
    (1, 1),
    "Word n-gram range, e.g. 1-2 (default: 1-1).",
    "word n-grams joined by one space, built with `LEAD` window functions over the kept tokens",
    usage="`--ngrams 1-2`",
)
TOKENIZER = (LOWERCASE, TOKEN_PATTERN, STOP_WORDS, NGRAMS)

# --- vocabulary pruning (sqlnb.pruning.Pruning) and selection (sqlnb.features.Selection) -----

MIN_DF = Setting(
    "min_df", TEXT, 1, "Drop words in fewer documents (count, or fraction; default 1)."
)
MAX_DF = Setting(
    "max_df", TEXT, 1.0, "Drop words in more documents (count, or fraction; default 1.0)."
)
MAX_FEATURES = Setting(
    "max_features",
    INTEGER,
    None,
    "Keep only the most frequent words (default: all).",
    low=1,
    message="{name} must be at least 1",
)
PRUNING = (MIN_DF, MAX_DF, MAX_FEATURES)
SELECT = Setting("select", TEXT, None, "Keep the N best words: chi2:N or mutual-info:N (text).")

# --- semi-supervised EM (sqlnb.semisupervised.EM) -----------------------------------------

EM_WEIGHT = Setting(
    "em_weight",
    NUMBER,
    1.0,
    "EM: the unlabeled documents' weight (default: 1).",
    keyword="weight",
    message="{flag} must be a finite number {bound}, not {value!r}",
)
EM_ITERATIONS = Setting(
    "em_iterations",
    INTEGER,
    10,
    "EM: the number of iterations (default: 10).",
    keyword="iterations",
    message="{flag} must be {bound}, not {value}",
)
EM_TOLERANCE = Setting(
    "em_tolerance",
    NUMBER,
    0.0,
    "EM: stop below this relative change of the log-likelihood (0: never).",
    keyword="tolerance",
    message="{flag} must be a number {bound}, not {value!r}",
)
EM = (EM_WEIGHT, EM_ITERATIONS, EM_TOLERANCE)

# --- calibration, prediction, tuning --------------------------------------------------------

METHOD = Setting(
    "method",
    CHOICE,
    "temperature",
    "temperature (default: one T, labels unchanged), sigmoid or isotonic (per class, "
    "one-vs-rest), or none (remove the calibration).",
    choices=("temperature", "sigmoid", "isotonic", "none"),
    message="{flag} must be one of {choices}, not {value!r}",
)
UNSEEN = Setting(
    "unseen",
    CHOICE,
    "ignore",
    "Categorical value never seen in training: 'ignore' or 'error'.",
    choices=("ignore", "error"),
    message="{flag} must be 'ignore' or 'error', not {value!r}",
)
ALPHAS = Setting(
    "alpha",
    TEXT,
    (0.01, 0.1, 0.5, 1.0),
    "Alphas to try, comma-separated.",
    keyword="alphas",
)
FOLDS = Setting(
    "folds",
    INTEGER,
    5,
    "Number of cross-validation folds.",
    low=2,
    message="{flag} must be at least 2",
)


# --- versions (sqlnb.versions) -------------------------------------------------------------

KEEP = Setting(
    "keep",
    INTEGER,
    3,
    "Versions of the model to keep, the current one included (sqlnb versions).",
    low=1,
    message="{flag} must be at least 1 (the current version), not {value!r}",
)

# --- every command that opens a database -----------------------------------------------

WAIT = Setting(
    "wait",
    NUMBER,
    None,
    "Seconds to wait for a DuckDB file another process is using (default: 0, fail at once), or "
    "on PostgreSQL for the models another session is writing (default: 30).",
    message="{flag} must be a number of seconds {bound}, not {value:g}",
)

# --- monitoring (sqlnb.monitor) ------------------------------------------------------------

EVERY = Setting(
    "every",
    CHOICE,
    "month",
    "The windows' length, with --time-column: day, week (from Monday) or month.",
    choices=("day", "week", "month"),
    message="{flag} must be one of {choices}, not {value!r}",
)

# --- label modes (sqlnb.labels) --------------------------------------------------------------

HIERARCHY = Setting(
    "hierarchy",
    TEXT,
    None,
    "Labels are paths split by this separator (e.g. '/'): predict walks the tree.",
    metavar="SEP",
)
CONFIDENCE = Setting(
    "confidence",
    NUMBER,
    0.7,
    "Hierarchical labels: stop the walk before the first node below this probability "
    "(default: 0.7 at training; predict: the model's).",
    metavar="C",
    message="{flag} must be a number between 0 and 1, not {value!r}",
)

MULTI_LABEL = Setting(
    "multi_label",
    FLAG,
    False,
    "Several labels per document (a labels table with several rows for one): one binary "
    "Naive Bayes per label.",
)
THRESHOLD = Setting(
    "threshold",
    NUMBER,
    0.5,
    "Multi-label: predict every label whose probability is at least this (default: 0.5 at "
    "training; predict: the model's).",
    metavar="T",
    message="{flag} must be a number between 0 and 1, not {value!r}",
)

LABEL_MODES = (HIERARCHY, CONFIDENCE, MULTI_LABEL, THRESHOLD)

# Every setting above (the hyperparameters are sqlnb.kinds.params's).
SETTINGS = (
    *TOKENIZER,
    *PRUNING,
    SELECT,
    *EM,
    METHOD,
    UNSEEN,
    ALPHAS,
    FOLDS,
    KEEP,
    WAIT,
    EVERY,
    *LABEL_MODES,
)


def listed(values: Sequence[float]) -> str:
    """A list of numbers as the command line writes it: ``0.01,0.1,0.5,1``."""
    return ",".join(f"{v:g}" for v in values)


def markdown(settings: Sequence[Setting]) -> str:
    """A README table of ``settings``: the option as used, what it means."""
    lines = ["| option | meaning |", "|---|---|"]
    lines += [f"| {s.usage or '`' + s.flag + '`'} | {s.doc or s.help} |" for s in settings]
    return "\n".join(lines)
