"""Hyperparameters, each declared once (settings, :class:`sqlnb.settings.Setting`, that say
where the paths use them): its name (the API's keyword, ``--name`` on the command line),
default, kind of value and range, help, and whether a retuning may change it. A kind
lists the ones it takes (:attr:`sqlnb.kinds.base.Kind.hyperparameters`); the command line's
options, the API's keywords, the checks and their messages, and the README's table of options
all come from these declarations (scikit-learn's ``_parameter_constraints`` is the model).

>>> ALPHA.check(0.5), ALPHA.option
(0.5, '--alpha A')
>>> ALPHA.check(-1)
Traceback (most recent call last):
...
sqlnb.errors.SqlnbError: alpha must be a finite number >= 0, not -1
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlnb.classes import parse_class_prior
from sqlnb.errors import SqlnbError
from sqlnb.settings import CHOICE, FLAG, NUMBER, Setting

PRIOR, WEIGHTS = "prior", "weights"  # besides a setting's values (sqlnb.settings)
# Where the paths use a hyperparameter (Hyper.stage), as the README's table says it.
STAGES = {
    "parameters": "deriving (`retune` may change it)",
    "counts": "counting (train again)",
    "documents": "every document, trained or scored (train again)",
}


@dataclass(frozen=True)
class Hyper(Setting):
    """One hyperparameter: a :class:`~sqlnb.settings.Setting` that may also take a ``prior``
    (a probability per label, ``'spam=0.3,ham=0.7'`` on the command line) or ``weights``
    (``'balanced'``, or a weight >= 0 per label: ``'spam=5,ham=1'``). ``stage``: where the
    paths use it (:data:`STAGES`): when the parameters are derived from the stored counts
    (training, append, retune, which may change it), when the documents are counted (training
    and append: it shaped the counts), or on every document, counted or scored (training,
    append and every scoring path, which read it from the model). ``resets``: the
    hyperparameters that giving this one sets back to their defaults."""

    stage: str = "parameters"
    resets: tuple[str, ...] = ()

    @property
    def retune(self) -> bool:
        """Whether a retuning may change it: only what derives the parameters from the
        stored counts."""
        return self.stage == "parameters"

    def check(self, value: Any) -> Any:
        """The value, checked (and read, where the command line gives text); a clear error
        naming the hyperparameter otherwise."""
        if self.value in (NUMBER, FLAG, CHOICE):
            return super().check(value)
        if self.value == WEIGHTS and value == "balanced":
            return value
        if isinstance(value, str):
            value = (
                parse_class_prior(value, "class weight", "weight")
                if self.value == WEIGHTS
                else parse_class_prior(value)
            )
        if self.value == WEIGHTS:
            if not isinstance(value, dict) or not all(
                isinstance(w, (int, float))
                and not isinstance(w, bool)
                and math.isfinite(w)
                and w >= 0
                for w in value.values()
            ):
                raise SqlnbError(
                    f"{self.name} must be 'balanced' or map labels to weights >= 0, not {value!r}"
                )
            return {str(k): float(w) for k, w in value.items()}
        if not isinstance(value, dict) or not all(
            isinstance(p, (int, float)) and not isinstance(p, bool) for p in value.values()
        ):
            raise SqlnbError(f"{self.name} must map labels to probabilities, not {value!r}")
        return {str(k): float(p) for k, p in value.items()}


ALPHA = Hyper(
    "alpha",
    NUMBER,
    1.0,
    "Additive smoothing (Laplace 1, Lidstone > 0, 0 = maximum likelihood) (default: 1).",
    "additive smoothing, default 1 (Laplace); any α > 0 is Lidstone; α = 0 is maximum "
    "likelihood (not for complement, whose weights are ln(count + α))",
)
# complement's weights are ln(count + alpha)
ALPHA_POSITIVE = Hyper(
    "alpha",
    NUMBER,
    1.0,
    ALPHA.help,
    ALPHA.doc,
    strict=True,
)
BETA = Hyper(
    "beta",
    NUMBER,
    None,
    "Bernoulli: pseudo-count of absence (default: alpha).",
    "pseudo-count of absence, default α: the Beta(α, β) prior",
)
NORM = Hyper(
    "norm", FLAG, False, "Complement: normalise the weights.", "normalise the weights (default off)"
)
FIT_PRIOR = Hyper(
    "fit_prior",
    FLAG,
    True,
    "Learn class priors (default), or uniform.",
    "learned priors N_k/N (default), or uniform 1/K",
    resets=("class_prior",),
)
CLASS_PRIOR = Hyper(
    "class_prior",
    PRIOR,
    None,
    "Given class priors, e.g. 'spam=0.3,ham=0.7'.",
    "given priors: every class named once, each in [0, 1], summing to 1 within 1e-6; used as given",
    metavar="'spam=0.3,ham=0.7'",
)
PRIOR_ALPHA = Hyper(
    "prior_alpha",
    NUMBER,
    0.0,
    "Dirichlet smoothing of learned priors: (N_k + a) / (N + K a) (default: 0).",
    "Dirichlet-smoothed learned priors (N_k + a)/(N + K·a); default 0",
    resets=("class_prior",),
    metavar="a",
)
VAR_SMOOTHING = Hyper(
    "var_smoothing",
    NUMBER,
    1e-9,
    "Gaussian: add this times the largest feature variance (default: 1e-9).",
    "ε = E × the largest population variance of any Gaussian feature over all training rows is "
    "added to every variance (default 1e-9; 0 allowed)",
    metavar="E",
)
SAMPLE_VARIANCE = Hyper(
    "sample_variance",
    FLAG,
    False,
    "Gaussian: n - 1 variance (default: population, n).",
    "n − 1 variances (as MADlib and R; a single value has variance 0) instead of the population "
    "variance (the maximum-likelihood estimate, as scikit-learn)",
    off="--population-variance",
)
SUBLINEAR_TF = Hyper(
    "sublinear_tf",
    FLAG,
    False,
    "Transform: a count becomes 1 + ln(count).",
    "document transform: a word's count becomes 1 + ln(count) (scikit-learn's sublinear_tf; "
    "default off)",
    stage="documents",
)
IDF = Hyper(
    "idf",
    CHOICE,
    "none",
    "Transform: times the inverse document frequency: smooth, plain or none (default).",
    "document transform: a count times the word's inverse document frequency, 'smooth' "
    "ln((1 + n)/(1 + df)) + 1 or 'plain' ln(n/df) + 1 over the n training documents (as "
    "scikit-learn's TfidfTransformer; default none)",
    choices=("none", "smooth", "plain"),
    stage="documents",
    metavar="{smooth,plain}",
)
DOC_NORM = Hyper(
    "doc_norm",
    CHOICE,
    "none",
    "Transform: divide a document's values by their l1 or l2 norm, or none (default).",
    "document transform, after the others: a document's values divided by their 'l1' or 'l2' "
    "norm over the words the model knows (default none)",
    metavar="{l1,l2}",
    stage="documents",
    choices=("none", "l1", "l2"),
)
CLASS_WEIGHT = Hyper(
    "class_weight",
    WEIGHTS,
    None,
    "Weigh each class's documents: 'balanced' or e.g. 'spam=5,ham=1' (default: 1).",
    "each document's sample weight times its class's weight: `balanced` is n / (K · n_k) over the "
    "n training documents of K classes (scikit-learn's `compute_sample_weight('balanced', y)`), "
    "or `'spam=5,ham=1'` (a class not named weighs 1); default none",
    stage="counts",
    metavar="balanced|'spam=5,ham=1'",
)
TRANSFORMS = (SUBLINEAR_TF, IDF, DOC_NORM)
PRIORS = (FIT_PRIOR, CLASS_PRIOR, PRIOR_ALPHA)
PRIOR_DEFAULTS: dict[str, Any] = {h.name: h.default for h in PRIORS}


def resolve(
    kind: str,
    declared: Sequence[Hyper],
    given: dict[str, Any],
    without: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The hyperparameters of a kind that declares ``declared``: those ``given`` (None: not
    given) checked, the others their defaults. One it does not declare is refused (``without``
    says why, for some)."""
    by_name = {h.name: h for h in declared}
    resolved = {h.name: h.default for h in declared}
    for name, value in given.items():
        if value is None:
            continue
        if name not in by_name:
            flag = "--" + name.replace("_", "-")
            why = (without or {}).get(name)
            raise SqlnbError(f"kind {kind!r} does not use {flag}" + (f": {why}" if why else ""))
        resolved[name] = by_name[name].check(value)
    return resolved


def declared(kind: Any) -> dict[str, Hyper]:
    """The hyperparameters ``kind`` takes, by name."""
    return {h.name: h for h in kind.hyperparameters}


def uses_prior(kind: Any) -> bool:
    """Whether ``kind`` uses class priors (complement does not: it takes no prior option)."""
    return FIT_PRIOR in kind.hyperparameters


def resolved(kind: Any, given: dict[str, Any]) -> dict[str, Any]:
    """The hyperparameters of ``kind`` with defaults filled in and every value checked; ones it
    does not declare refused (a prior option of a kind without priors: because it uses none).
    Every model has priors to derive (a kind without prior options has the learned ones,
    unused)."""
    without = {} if uses_prior(kind) else {h.name: "it uses no class prior" for h in PRIORS}
    return {**PRIOR_DEFAULTS, **resolve(kind.name, kind.hyperparameters, given, without)}


def every(kinds: Iterable[Any]) -> dict[str, Hyper]:
    """Every hyperparameter of ``kinds`` (a kind's own declaration of a name wins over a
    later kind's), by name, in the order they are first declared."""
    found: dict[str, Hyper] = {}
    for kind in kinds:
        for h in kind.hyperparameters:
            found.setdefault(h.name, h)
    return found


def markdown(kinds: Sequence[Any]) -> str:
    """The README's table of the hyperparameters: option, the kinds that take it, meaning."""
    names = [k.name for k in kinds]
    lines = ["| option | kinds | used when | meaning |", "|---|---|---|---|"]
    for name, h in every(kinds).items():
        taking = [k.name for k in kinds if any(x.name == name for x in k.hyperparameters)]
        if len(taking) == len(names):
            who = "all"
        elif len(taking) == len(names) - 1:
            who = "all but " + next(n for n in names if n not in taking)
        else:
            who = ", ".join(taking)
        notes = {x.doc or x.help for k in kinds for x in k.hyperparameters if x.name == name}
        used = STAGES[h.stage]
        lines.append(f"| `{h.option}` | {who} | {used} | {'; '.join(sorted(notes))} |")
    return "\n".join(lines)
