"""How the command line and the report name what a kind's models hold: its features by what it
reads (words of text, columns of a table), and how the report reads a word's contribution to
a misclassification (a kind without word contributions has no note: the report then lists the
documents alone)."""

from __future__ import annotations

from typing import Any

from sqlnb.inputs import Table

# What n_features counts, and the same in the report's table of the model.
NOUN = {"text": "words", "table": "features"}
SIZE = {"text": "vocabulary (words)", "table": "features"}

_WORD = "Each word adds count × (log θ<sub>predicted</sub> − log θ<sub>true</sub>) to "
# By kind: how a word's contribution reads (HTML).
WORD_NOTES = {
    "multinomial": _WORD + "log P(predicted) − log P(true); the prior adds the rest.",
    "complement": _WORD + "log P(predicted) − log P(true).",
    "bernoulli": (
        "Bernoulli: a present word adds (log θ − log(1 − θ)) of the predicted class minus that "
        "of the true class to log P(predicted) − log P(true); the absent words and the prior "
        "add the rest."
    ),
}


def _reads(kind: Any) -> str:
    return "table" if Table in kind.reads else "text"


def noun(kind: Any) -> str:
    """What a model's n_features counts: "words" or "features"."""
    return NOUN[_reads(kind)]


def size(kind: Any) -> str:
    """The same in the report's table of the model."""
    return SIZE[_reads(kind)]


def word_note(kind: Any) -> str | None:
    """How a word's contribution to a misclassification reads (HTML), or None where the kind
    has no word contributions."""
    return WORD_NOTES.get(kind.name)
