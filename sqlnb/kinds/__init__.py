"""Model kinds. Each is a small piece: its counting queries, its parameter queries and its
joint-log-likelihood queries, its tables, and what it explains and describes. Everything else
(classes, priors, the catalog, the posterior, the argmax, evaluation) is shared."""

from __future__ import annotations

from typing import Any

from sqlnb.errors import SqlnbError
from sqlnb.inputs import Table
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


def kind_for(name: str | None, source: Any) -> Kind:
    """The kind called ``name`` (default: mixed for a wide table, else multinomial), which must
    read ``source``."""
    the_kind = kind(name or ("mixed" if isinstance(source, Table) else "multinomial"))
    the_kind.accept(source)
    return the_kind


__all__ = ["KINDS", "Kind", "ModelTable", "kind", "kind_for"]
