"""Multinomial Naive Bayes: a document is a bag of word counts."""

from __future__ import annotations

from typing import Any

from sqlglot import exp

from sqlnb import templates
from sqlnb.kinds.base import Kind


class Multinomial(Kind):
    name = "multinomial"
    tables = ("sqlnb_word_counts", "sqlnb_log_theta")
    creates = ("catalog/create_word_counts.sql", "catalog/create_log_theta.sql")

    def count(self, model: str, tokens: exp.Expr, labeled: exp.Expr) -> list[exp.Expr]:
        return [
            templates.render("multinomial/count.sql", model=model, tokens=tokens, labeled=labeled)
        ]

    def derive(self, model: str, params: dict[str, Any]) -> list[exp.Expr]:
        alpha = templates.number(params["alpha"])
        return [templates.render("multinomial/log_theta.sql", model=model, alpha=alpha)]

    def jll(self, model: str, documents: exp.Expr, tokens: exp.Expr) -> exp.Expr:
        return templates.render(
            "multinomial/jll.sql", model=model, documents=documents, tokens=tokens
        )

    def n_features(self, model: str) -> exp.Expr:
        return templates.render("multinomial/n_features.sql", model=model)
