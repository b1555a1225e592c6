"""What a model kind provides."""

from __future__ import annotations

from typing import Any, ClassVar

from sqlglot import exp


class Kind:
    """A Naive Bayes event model over the shared storage.

    ``tables`` are the kind's own stored-count and derived tables (besides ``sqlnb_classes`` and
    ``sqlnb_prior``, which every kind shares); ``create`` their CREATE statements.
    """

    name: ClassVar[str]
    tables: ClassVar[tuple[str, ...]]
    creates: ClassVar[tuple[str, ...]]
    uses_prior: ClassVar[bool] = True

    def count(self, model: str, tokens: exp.Expr, labeled: exp.Expr) -> list[exp.Expr]:
        """Statements that insert the model's sufficient statistics."""
        raise NotImplementedError

    def derive(self, model: str, params: dict[str, Any]) -> list[exp.Expr]:
        """Statements that insert the derived parameter tables from the stored counts."""
        raise NotImplementedError

    def jll(self, model: str, documents: exp.Expr, tokens: exp.Expr) -> exp.Expr:
        """The joint log-likelihood (doc_id, class_id, jll) of every document and class;
        NULL jll means -infinity."""
        raise NotImplementedError

    def n_features(self, model: str) -> exp.Expr:
        """A scalar query: the model's number of features (its vocabulary size)."""
        raise NotImplementedError
