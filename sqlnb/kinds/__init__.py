"""Model kinds. Each is a small piece: its counting queries, its parameter queries and its
joint-log-likelihood queries. Everything else (classes, priors, the catalog, the posterior, the
argmax, evaluation) is shared."""

from __future__ import annotations

from sqlnb.errors import SqlnbError
from sqlnb.kinds.base import Kind
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


__all__ = ["KINDS", "Kind", "kind"]
