"""TF-IDF, a text model's document transform, as an object of its own (:class:`Tfidf`).

scikit-learn's TfidfTransformer is three value maps over a document's (word, count) bag,
applied before the sum of the joint log-likelihood: tf (1 + ln(count) where sublinear), idf
(times the word's inverse document frequency) and the document's norm (divided by the l1 or
l2 norm of its values). The values are one expression over rows and over lists
(``sql/tfidf/value.sql``, ``norm.sql``): :func:`value`, :func:`norm`. A model with a transform
keeps its document frequencies (:data:`DOC_FREQ`, :data:`DOC_COUNT`, counts) and, derived from
them, each word's idf and the settings (:data:`TRANSFORM`), which scoring reads (:func:`apply`):
the SQL functions apply any model's transform from its rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlglot import exp

from sqlnb import templates
from sqlnb.kinds.base import ModelTable

if TYPE_CHECKING:
    from sqlnb.kinds.base import Name, Params

DOC_FREQ = ModelTable(
    "sqlnb_doc_freq",
    ("word", "df"),
    counts=True,
    keys=(("word",),),
    amounts=("df",),
    whole=("df",),
    optional=True,
    folder="tfidf",
)
DOC_COUNT = ModelTable(
    "sqlnb_doc_count",
    ("n",),
    counts=True,
    amounts=("n",),
    whole=("n",),
    single=True,
    optional=True,
    folder="tfidf",
    backfill="tfidf/doc_count_backfill.sql",
)
TRANSFORM = ModelTable(
    "sqlnb_transform", ("word", "idf", "sublinear", "norm"), lookup=("model", "word")
)


@dataclass(frozen=True)
class Tfidf:
    """A model's document transform: tf (``sublinear``), ``idf`` ('smooth', 'plain' or
    'none') and the document's ``norm`` ('l1', 'l2' or 'none'), from the hyperparameters
    ``sublinear_tf``, ``idf`` and ``doc_norm`` (:meth:`of`)."""

    sublinear: bool
    idf: str
    norm: str

    @classmethod
    def of(cls, params: Params) -> Tfidf | None:
        """The transform of a model trained with ``params``, or None where it has none."""
        found = cls(
            bool(params.get("sublinear_tf")),
            str(params.get("idf", "none")),
            str(params.get("doc_norm", "none")),
        )
        return found if found.sublinear or found.idf != "none" or found.norm != "none" else None

    @property
    def idf_in_counts(self) -> bool:
        """Whether the stored counts hold the idf: only where a document norm mixes it into
        every document's values (then appending is refused). Otherwise the counts leave it
        out and the weights are derived from the counts times the idf (:meth:`derive`), so
        that appending adds counts up."""
        return self.idf != "none" and self.norm != "none"

    @property
    def linear(self) -> bool:
        """Whether a document's transformed counts add up linearly (no tf, no norm)."""
        return not self.sublinear and self.norm == "none"

    def frequencies(self, model: Name, *, counted: bool = False) -> exp.Select:
        """Per word of model ``model``'s stored document frequencies: (model, word, idf,
        sublinear, norm); with ``counted``, as the counts hold them (the idf only where
        :attr:`idf_in_counts`)."""
        idf = self.idf if self.idf_in_counts or not counted else "none"
        return templates.select(
            "tfidf/frequencies.sql",
            model=model,
            idf=exp.convert(idf),
            sublinear=exp.convert(self.sublinear),
            norm=exp.cast(exp.null() if self.norm == "none" else exp.convert(self.norm), "VARCHAR"),
        )

    def count(
        self, model: str, tokens: exp.Query, labels: exp.Query
    ) -> tuple[list[exp.Expr], exp.Select]:
        """The statements that store the document frequencies (first: the transform reads
        them), and the training ``tokens`` transformed as the counts hold them."""
        statements = [
            templates.render("tfidf/doc_freq.sql", model=model, tokens=tokens, labels=labels),
            templates.render("tfidf/doc_count.sql", model=model, labels=labels),
        ]
        return statements, transform(model, tokens, self.frequencies(model, counted=True))

    def derive(self, model: str) -> tuple[list[exp.Expr], exp.Select]:
        """The statement that stores the words' idf and the settings (sqlnb_transform), and
        the class counts the weights are derived from: the stored counts times the idf they
        leave out."""
        scaled = self.idf != "none" and not self.idf_in_counts
        counts = templates.select("tfidf/counts.sql", model=model, scaled=scaled)
        frequencies = self.frequencies(model)
        stored = templates.render("tfidf/derive.sql", model=model, frequencies=frequencies)
        return [stored], counts


def apply(model: Name, tokens: exp.Query) -> exp.Select:
    """The (doc_id, word, count) ``tokens`` transformed by model ``model``'s stored transform
    (its rows of sqlnb_transform)."""
    return transform(model, tokens, TRANSFORM.node())


def stored(model: Name) -> exp.Expr:
    """Whether model ``model`` (a name, or the functions' parameter) has a document transform:
    a row in sqlnb_doc_count, which only such models have (one row each: an engine reads it
    whole, as a query of Spark's SQL functions must, where it cannot look the model up)."""
    name = model if isinstance(model, exp.Expr) else exp.convert(model)
    return name.isin(query=exp.select("model").from_(DOC_COUNT.node()))


def value(count: exp.Expr, sublinear: exp.Expr, idf: exp.Expr) -> exp.Expr:
    """A word's transformed ``count`` (``sql/tfidf/value.sql``), before the document's norm."""
    found = templates.expressions("tfidf/value.sql", count=count, sublinear=sublinear, idf=idf)
    return found["value"]


def norm(which: exp.Expr, sum_abs: exp.Expr, sum_squares: exp.Expr) -> exp.Expr:
    """A document's norm (``sql/tfidf/norm.sql``) from its values' sums."""
    bindings = {"norm": which, "sum_abs": sum_abs, "sum_squares": sum_squares}
    return templates.expressions("tfidf/norm.sql", **bindings)["norm"]


def transform(model: Name, tokens: exp.Query, settings: exp.Expr) -> exp.Select:
    """The (doc_id, word, count) ``tokens`` transformed by the ``settings`` (model, word, idf,
    sublinear, norm: :meth:`Tfidf.frequencies` or the table sqlnb_transform) of model
    ``model``."""
    x = templates.col("value", "x")

    def total(of: exp.Expr) -> exp.Expr:  # over the document's words
        return exp.Window(this=exp.Sum(this=of), partition_by=[templates.col("doc_id", "x")])

    return templates.select(
        "tfidf/transform.sql",
        model=model,
        tokens=tokens,
        frequencies=settings,
        value=value(
            templates.col("count", "t"), templates.col("sublinear", "f"), templates.col("idf", "f")
        ),
        norm=norm(
            templates.col("norm", "x"),
            total(exp.Abs(this=x.copy())),
            total(exp.Mul(this=x.copy(), expression=x.copy())),
        ),
    )
