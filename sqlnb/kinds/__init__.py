"""Model kinds. Each is a small piece: its counting queries, its parameter queries and its
joint-log-likelihood queries, its tables, and what it explains and describes. Everything else
(classes, priors, the catalog, the posterior, the argmax, evaluation) is shared."""

from __future__ import annotations

from typing import Any

from sqlnb.errors import SqlnbError
from sqlnb.inputs import Table, Tokens
from sqlnb.kinds.base import Kind, ModelTable
from sqlnb.kinds.tabular import Categorical, Gaussian, Tabular
from sqlnb.kinds.text import Bernoulli, Complement, Multinomial

KINDS: dict[str, Kind] = {
    k.name: k
    for k in (Multinomial(), Bernoulli(), Complement(), Gaussian(), Categorical(), Tabular())
}


def kind(name: str) -> Kind:
    """The kind called ``name``; an unknown kind is a clear error."""
    try:
        return KINDS[name]
    except KeyError:
        raise SqlnbError(f"unknown kind {name!r}: choose one of {', '.join(KINDS)}") from None


# What a kind reads (its first source), in words, for the error that refuses another.
NEEDS = {Tokens: "a tokens table (--tokens)", Table: "a wide table (--table)"}


def kind_for(name: str | None, source: Any) -> Kind:
    """The kind called ``name`` (default: mixed for a wide table, else multinomial), which must
    read ``source``."""
    the_kind = kind(name or ("mixed" if isinstance(source, Table) else "multinomial"))
    if not isinstance(source, the_kind.reads):
        raise SqlnbError(f"kind {the_kind.name!r} trains from {NEEDS[the_kind.reads[0]]}")
    return the_kind


__all__ = ["KINDS", "Kind", "ModelTable", "kind", "kind_for"]
