"""A model's terms of the joint log-likelihood, the one form every scoring path compiles.

A Naive Bayes joint log-likelihood is ``base[c] + Σ term(key, value, c)`` over a document's bag
of (key, value) pairs. A kind describes a trained model's terms (:meth:`Kind.terms
<sqlnb.kinds.base.Kind.terms>`) as a :class:`Terms` object; the forms ask that object, never
the kind: ``predict``, ``evaluate`` and ``explain`` (:mod:`sqlnb.pipeline`), the SQL functions'
rows form (:mod:`sqlnb.functions.rows`), which rewrites one model's terms into those of any
model of the kind (:meth:`Terms.variants`), and what their SQL depends on
(:attr:`Terms.signature`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlnb import templates

if TYPE_CHECKING:
    from sqlglot import exp

    from sqlnb.kinds.base import Name


class Terms:
    """A model's terms: its per-class :meth:`base` and its per-document :meth:`parts`.

    This base has the prior as its base and no parts of its own; each kind's module gives
    its own terms.
    """

    def base(self, model: Name) -> exp.Expr:
        """Per-class base of the joint log-likelihood: (class_id, score, n_zero)."""
        return templates.render("predict/base_prior.sql", model=model)

    def parts(self, model: Name) -> exp.Expr:
        """Per-document parts of the joint log-likelihood: (doc_id, class_id, score, n_zero),
        one row per document and class, reading the relations the kind's ``inputs`` named."""
        raise NotImplementedError

    @property
    def signature(self) -> tuple[Any, ...]:
        """What the SQL of the model's scoring depends on besides its name and tokenizer:
        models of one kind and one signature share a branch of PostgreSQL's SQL functions."""
        return ()

    def variants(self, model: Name, *, transformed: bool = True) -> list[tuple[Terms, Any]]:
        """The terms of any model of the kind, for the SQL functions, whose model ``model`` is
        a parameter: these terms widened to every setting that changes their SQL, each with
        the condition on the model under which they are its terms (None: always). Without
        ``transformed``, no model of the database has a document transform."""
        return [(self, None)]
