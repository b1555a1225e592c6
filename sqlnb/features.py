"""Word scores and selection: chi-squared and mutual information of each word and the class.

Both are computed in SQL from one aggregate per (word, class) over the labeled documents
(``sql/features/counts.sql``), pivoted so that each word's score is one expression summing its
classes in class order (the order scikit-learn sums them in: equal scores are equal to the
last bit, and ties break as scikit-learn breaks them):

- ``chi2``: scikit-learn's ``sklearn.feature_selection.chi2`` on the count matrix: per class
  (O - E)^2 / E, O the class's summed count of the word, E the class's share of the documents
  times the word's total count; its p-value that of chi-squared with K - 1 degrees of freedom
  (:func:`chi2_sf`, in Python: no engine has the incomplete gamma function);
- ``mutual-info``: the mutual information (nats) of the word's presence and the class, as
  ``mutual_info_classif(X > 0, y, discrete_features=True)``: the sum over the cells of the
  (present, class) contingency table of p(cell) ln(p(cell) / (p(row) p(class))).

``train --select chi2:N`` keeps the N best words (:class:`Selection`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import templates
from sqlnb.engine.bulk import write_rows
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Docs, Labels, Source, Tokens, as_source, labels_for
from sqlnb.tokenizer import Tokenizer

if TYPE_CHECKING:
    from sqlnb.engine import Database

SCORES = ("chi2", "mutual-info")
WIDE = 64  # up to this many classes a word's score adds them in class order in one expression


def _number(e: exp.Expr) -> exp.Expr:
    return exp.cast(e, "DOUBLE")


def _op(kind: type[exp.Binary], a: exp.Expr, b: exp.Expr) -> exp.Expr:
    """``a kind b`` with both sides in parentheses (sqlglot does not add them)."""
    return exp.paren(kind(this=exp.paren(a.copy()), expression=exp.paren(b.copy())))


def scores(tokens: exp.Query, labels: exp.Query, classes: Sequence[str], score: str) -> exp.Select:
    """(word, score) of every word of the labeled documents, for the labels ``classes`` (as
    text, in class order)."""
    if score not in SCORES:
        raise SqlnbError(f"--score must be one of {', '.join(SCORES)}, not {score!r}")
    counts = templates.select("features/counts.sql", tokens=tokens, labels=labels)
    if len(classes) > WIDE:
        return _long_scores(counts, labels, score)
    c = {n: exp.column(n, "c") for n in ("label", "observed", "docs")}
    per_class = []
    for k, value in enumerate(classes):
        mine = c["label"].eq(exp.convert(value))
        for name in ("observed", "docs"):
            picked = exp.Max(this=exp.Case(ifs=[exp.If(this=mine.copy(), true=c[name].copy())]))
            per_class.append(
                _number(exp.func("COALESCE", picked, exp.convert(0))).as_(f"{name}{k}")
            )
    pivot = (
        exp.select(
            exp.column("word", "c"),
            _number(exp.Sum(this=c["observed"].copy())).as_("total"),
            _number(exp.Sum(this=c["docs"].copy())).as_("df"),
            *per_class,
        )
        .from_(counts.subquery("c"))
        .group_by(exp.column("word", "c"))
    )
    label = exp.cast(exp.column("label", "l"), "VARCHAR")
    documents = exp.select(
        _number(exp.func("COUNT", exp.Star())).as_("n"),
        *(
            _number(
                exp.Sum(
                    this=exp.Case(
                        ifs=[exp.If(this=label.eq(exp.convert(v)), true=exp.convert(1))],
                        default=exp.convert(0),
                    )
                )
            ).as_(f"n{k}")
            for k, v in enumerate(classes)
        ),
    ).from_(exp.select("doc_id", "label").distinct().from_(labels.subquery("d")).subquery("l"))
    n = exp.column("n", "k")
    total, df = exp.column("total", "p"), exp.column("df", "p")
    terms: list[exp.Expr] = []
    for k in range(len(classes)):
        observed, present = exp.column(f"observed{k}", "p"), exp.column(f"docs{k}", "p")
        terms += _terms(score, observed, present, exp.column(f"n{k}", "k"), n, total, df)
    summed = terms[0]
    for term in terms[1:]:  # added in class order
        summed = exp.Add(this=summed, expression=term)
    return (
        exp.select(exp.column("word", "p"), _clipped(score, summed).as_("score"))
        .from_(pivot.subquery("p"))
        .join(documents.subquery("k"), join_type="CROSS")
    )


def _terms(
    score: str,
    observed: exp.Expr,
    present: exp.Expr,
    n_k: exp.Expr,
    n: exp.Expr,
    total: exp.Expr,
    df: exp.Expr,
) -> list[exp.Expr]:
    """One class's terms of a word's score: its summed count ``observed`` and documents
    ``present`` in the class, the class's documents ``n_k``, all documents ``n``, the word's
    summed count ``total`` and documents ``df`` (every one a DOUBLE)."""
    if score == "chi2":  # (O - E)^2 / E, E = (n_k / n) total
        expected = _op(exp.Mul, _op(exp.Div, n_k, n), total)
        diff = _op(exp.Sub, observed, expected)
        return [_op(exp.Div, _op(exp.Mul, diff, diff), expected)]
    terms: list[exp.Expr] = []
    cells = ((present, df), (_op(exp.Sub, n_k, present), _op(exp.Sub, n, df)))
    for cell, row in cells:  # p(cell) ln(p(cell) / (p(row) p(class)))
        ratio = _op(exp.Div, _op(exp.Mul, cell, n), _op(exp.Mul, row, n_k))
        part = _op(exp.Mul, _op(exp.Div, cell, n), exp.Ln(this=ratio))
        positive = exp.GT(this=cell.copy(), expression=exp.convert(0))
        terms.append(exp.Case(ifs=[exp.If(this=positive, true=part)], default=exp.convert(0.0)))
    return terms


def _clipped(score: str, summed: exp.Expr) -> exp.Expr:
    if score == "mutual-info":  # clipped at 0, as scikit-learn's mutual_info_score
        negative = exp.LT(this=summed.copy(), expression=exp.convert(0))
        return exp.Case(ifs=[exp.If(this=negative, true=exp.convert(0.0))], default=summed)
    return summed


def _long_scores(counts: exp.Select, labels: exp.Query, score: str) -> exp.Select:
    """:func:`scores` of more than :data:`WIDE` classes: every word crossed with every class
    (its documents) and joined to its counts in the class, each class's terms computed as the
    wide form computes them and summed by word. The query is the same whatever the number of
    classes; the engine adds the classes' terms in its own order (within 1e-12 of scikit-learn's
    sum in class order)."""
    documents = exp.select("doc_id", "label").distinct().from_(labels.subquery("d"))
    label = exp.cast(exp.column("label", "l"), "VARCHAR")
    per_class = (
        exp.select(label.as_("label"), _number(exp.func("COUNT", exp.Star())).as_("n_k"))
        .from_(documents.subquery("l"))
        .group_by(label.copy())
    )
    everyone = exp.select(_number(exp.func("COUNT", exp.Star())).as_("n")).from_(
        documents.subquery("l")
    )
    words = (
        exp.select(
            exp.column("word", "c").as_("word"),
            _number(exp.Sum(this=exp.column("observed", "c"))).as_("total"),
            _number(exp.Sum(this=exp.column("docs", "c"))).as_("df"),
        )
        .from_(counts.subquery("c"))
        .group_by(exp.column("word", "c"))
    )
    found = {
        name: _number(exp.func("COALESCE", exp.column(name, "c"), exp.convert(0)))
        for name in ("observed", "docs")
    }
    terms = _terms(
        score,
        found["observed"],
        found["docs"],
        exp.column("n_k", "k"),
        exp.column("n", "z"),
        exp.column("total", "p"),
        exp.column("df", "p"),
    )
    summed: exp.Expr = terms[0]
    for term in terms[1:]:
        summed = exp.Add(this=summed, expression=term)
    on = exp.and_(
        exp.column("word", "c").eq(exp.column("word", "p")),
        exp.column("label", "c").eq(exp.column("label", "k")),
    )
    cells = (
        exp.select(exp.column("word", "p").as_("word"), summed.as_("term"))
        .from_(words.subquery("p"))
        .join(per_class.subquery("k"), join_type="CROSS")
        .join(everyone.subquery("z"), join_type="CROSS")
        .join(counts.copy().subquery("c"), join_type="LEFT", on=on)
    )
    total = exp.Sum(this=exp.column("term", "t"))
    return (
        exp.select(exp.column("word", "t").as_("word"), _clipped(score, total).as_("score"))
        .from_(cells.subquery("t"))
        .group_by(exp.column("word", "t"))
    )


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for X chi-squared with ``df`` degrees of freedom: the regularised upper
    incomplete gamma function Q(df/2, x/2), a finite sum for integer df (with erfc for odd df).

    >>> round(chi2_sf(3.841458820694124, 1), 12), round(chi2_sf(5.991464547107979, 2), 12)
    (0.05, 0.05)
    """
    if df < 1:
        return math.nan
    if x <= 0:
        return 1.0
    y = x / 2
    if df % 2 == 0:
        term = math.exp(-y)
        total = term
        for i in range(1, df // 2):
            term *= y / i
            total += term
        return total
    total = math.erfc(math.sqrt(y))
    term = math.exp(-y) * math.sqrt(y) / math.gamma(1.5)
    for i in range(1, (df - 1) // 2 + 1):
        if i > 1:
            term *= y / (i - 0.5)
        total += term
    return total


@dataclass(frozen=True)
class Selection:
    """``train --select chi2:N``: keep the N best words by a score."""

    score: str
    n: int

    @classmethod
    def parse(cls, text: str) -> Selection:
        method, sep, count = text.rpartition(":")
        if not sep or method not in SCORES:
            raise SqlnbError(
                f"--select must be chi2:N or mutual-info:N (N words to keep), not {text!r}"
            )
        try:
            n = int(count)
        except ValueError:
            raise SqlnbError(f"--select {text!r}: {count!r} is not a number of words") from None
        if n <= 0:
            raise SqlnbError(f"--select {text!r}: the number of words to keep must be >= 1")
        return cls(method, n)

    def __str__(self) -> str:
        return f"{self.score}:{self.n}"

    def apply(
        self, db: Database, tokens: exp.Query, labels: exp.Query, classes: Sequence[str]
    ) -> exp.Select:
        """The tokens restricted to the N best words of the labeled documents (refusing an N
        larger than their vocabulary)."""
        scored = scores(tokens, labels, classes, self.score)
        size = db.fetch(exp.select(exp.func("COUNT", exp.Star())).from_(scored.subquery("v")))
        if self.n > int(size[0][0]):
            raise SqlnbError(
                f"--select {str(self)!r}: the labeled documents have {size[0][0]} words, "
                f"fewer than {self.n}"
            )
        kept = templates.select("features/selected.sql", scores=scored, n=self.n)
        return (
            exp.select("*").from_(tokens.subquery("t")).where(exp.column("word").isin(query=kept))
        )


def word_scores(
    db: Database,
    data: Source,
    labels: str | Labels | None = None,
    *,
    score: str = "chi2",
    tokenizer: Tokenizer | None = None,
) -> tuple[exp.Select, list[str]]:
    """The query of (word, score) of the labeled documents of a tokens or docs table (text
    tokenized by ``tokenizer``, default scikit-learn's CountVectorizer's), and their classes."""
    source = as_source(data)
    the_labels = labels_for(source, labels)
    query = the_labels.query(db)
    values = the_labels.check(db, query, purpose="score words of")
    if isinstance(source, Docs):
        tokens: exp.Query = (tokenizer or Tokenizer()).tokens(source, db)
    elif isinstance(source, Tokens):
        tokens = source.query(db)
        source.check(db, tokens)
    else:
        raise SqlnbError("word scores are for text: give --tokens or --docs")
    return scores(tokens, query, values, score), values


def ranked(db: Database, query: exp.Select, score: str, n_classes: int) -> list[tuple[Any, ...]]:
    """Every (word, score[, p_value]) of a :func:`word_scores` query, best first (ties: the
    word that sorts last first, as SelectKBest keeps them); p-values for chi2."""
    rows = db.fetch(
        exp.select("word", "score")
        .from_(query.subquery("s"))
        .order_by(exp.column("score").desc(), exp.column("word").desc())
    )
    if score != "chi2":
        return [(w, s) for w, s in rows]
    return [(w, s, chi2_sf(float(s), n_classes - 1)) for w, s in rows]


def write(db: Database, rows: list[tuple[Any, ...]], output: str, *, replace: bool) -> int:
    """Table ``output`` of the ranked rows (the p-values are computed here, not in the
    engine: the rows go in through a Parquet file)."""
    names = ["word", "score", "p_value"][: len(rows[0]) if rows else 2]
    types = {n: "VARCHAR" if n == "word" else "DOUBLE" for n in names}
    return write_rows(db, output, types, rows, replace=replace)
