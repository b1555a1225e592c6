"""Vocabulary pruning at training time (``--min-df``, ``--max-df``, ``--max-features``; declared
in :mod:`sqlnb.settings`), as scikit-learn's CountVectorizer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlglot import exp

from sqlnb import settings, templates
from sqlnb.errors import SqlnbError


@dataclass(frozen=True)
class Pruning:
    """Vocabulary pruning at training time, as scikit-learn's CountVectorizer: an integer
    ``min_df``/``max_df`` is a number of documents, a float a proportion of the training
    documents; ``max_features`` keeps the most frequent words (ties to the first word)."""

    min_df: int | float = settings.MIN_DF.default
    max_df: int | float = settings.MAX_DF.default
    max_features: int | None = settings.MAX_FEATURES.default

    def __post_init__(self) -> None:
        for name in ("min_df", "max_df"):
            value = getattr(self, name)
            if value < 0 or (isinstance(value, float) and value > 1):
                raise SqlnbError(f"{name} must be a count >= 0 or a proportion in [0, 1]")
        if self.max_features is not None:
            settings.MAX_FEATURES.check(self.max_features)

    @classmethod
    def parse(
        cls, min_df: str | None, max_df: str | None, max_features: int | None
    ) -> Pruning | None:
        """From the command line's texts; None when nothing is given."""
        if min_df is None and max_df is None and max_features is None:
            return None
        return cls(
            parse_df(min_df) if min_df else settings.MIN_DF.default,
            parse_df(max_df) if max_df else settings.MAX_DF.default,
            max_features,
        )

    def as_dict(self) -> dict[str, Any]:
        return {"min_df": self.min_df, "max_df": self.max_df, "max_features": self.max_features}

    def apply(self, tokens: exp.Query, labels: exp.Query) -> exp.Select:
        """The tokens of the labeled documents, restricted to the kept vocabulary."""
        labeled = exp.select("doc_id").from_(labels.subquery("l"))
        kept = (
            exp.select("*")
            .from_(tokens.subquery("t"))
            .where(exp.column("doc_id").isin(query=labeled))
        )
        n_docs = exp.select(exp.func("COUNT", exp.Star())).from_(labels.subquery("n"))

        def bound(value: int | float) -> exp.Expr:
            if isinstance(value, float):
                return exp.Mul(this=templates.number(value), expression=n_docs.subquery())
            return exp.convert(value)

        tree = templates.select(
            "tokenize/prune.sql",
            tokens=exp.to_table("sqlnb_unpruned"),  # read twice: one CTE, not two copies
            min_df=bound(self.min_df),
            max_df=bound(self.max_df),
            max_features=self.max_features or 2**62,
        )
        return tree.with_("sqlnb_unpruned", as_=kept)


def parse_df(text: str) -> int | float:
    """``'2'`` is a number of documents, ``'0.5'`` a proportion."""
    try:
        return float(text) if "." in text or "e" in text.lower() else int(text)
    except ValueError:
        raise SqlnbError(f"{text!r} is not a document count or proportion") from None
