"""The text kinds, read from a tokens table or raw text: multinomial, Bernoulli, complement."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from sqlglot import exp

from sqlnb import templates
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Docs, Labels, Tokens
from sqlnb.kinds import base, wide
from sqlnb.kinds.base import Inputs, Kind, Labeled, ModelTable, Name, Params, Ranked, Section
from sqlnb.kinds.params import (
    ALPHA,
    ALPHA_POSITIVE,
    BETA,
    CLASS_WEIGHT,
    NORM,
    PRIORS,
    TRANSFORMS,
    Hyper,
)
from sqlnb.kinds.terms import Terms
from sqlnb.kinds.tfidf import DOC_COUNT, DOC_FREQ, TRANSFORM, Tfidf, apply, stored
from sqlnb.tokenizer import Tokenizer

if TYPE_CHECKING:
    from sqlnb.engine import Database

TOKENS = "sqlnb_input"
CLASSES = "sqlnb_classes"  # (catalog.CLASSES: its n_docs stand in for a missing doc count)
WORD_COUNTS = ModelTable(
    "sqlnb_word_counts",
    ("class_id", "word", "count"),
    counts=True,
    keys=(("class_id", "word"),),
    amounts=("count",),
)
SCORING = ModelTable(wide.TABLE, wide.COLUMNS, lookup=("model", "word"))
BASE = ModelTable("sqlnb_base", ("class_id", "score", "n_zero", "presence"))
LOG_THETA = ModelTable("sqlnb_log_theta", ("class_id", "label", "word", "log_theta"), view=True)
LOG_ABSENT = ModelTable("sqlnb_log_absent", ("class_id", "word", "log_absent"), view=True)


class TextChecks(base.Checks):
    """What the text kinds refuse: a document transform whose document frequencies lack
    words, a model file whose TF-IDF counts disagree with its settings, appending where the
    counts hold an idf over all documents."""

    def trained(self, db: Database, model: str, params: Params) -> None:
        if Tfidf.of(params) is None:
            return
        rows = templates.render("tfidf/covered.sql", model=model)
        if db.fetch(rows)[0][0]:
            raise SqlnbError(
                f"model {model!r} has a document transform, but its document frequencies "
                "(sqlnb_doc_freq) lack some of its words"
            )

    def file(self, db: Database, staged: dict[str, exp.Table], params: Params) -> str | None:
        """The document frequencies and count (TF-IDF) agree with the settings: written for
        a model with a document transform only, the count's one row present (a file of an
        sqlnb before sqlnb_doc_count has no such file: its classes' sum stands in, as
        sql/tfidf/frequencies.sql reads it), and no word in more documents than that."""
        rows = {}
        for name, column in ((DOC_FREQ.name, "df"), (DOC_COUNT.name, "n"), (CLASSES, "n_docs")):
            found = staged.get(name)
            query = exp.select(
                exp.func("COUNT", exp.Star()).as_("n_rows"),
                exp.Max(this=exp.column(column)).as_("most"),
                exp.Sum(this=exp.column(column)).as_("total"),
            )
            rows[name] = db.fetch(query.from_(found))[0] if found else (0, None, None)
        n_freq, most_df, _ = rows[DOC_FREQ.name]
        n_count, n, _ = rows[DOC_COUNT.name]
        if Tfidf.of(params) is None:
            if n_freq or n_count:
                return (
                    f"{DOC_FREQ.name} or {DOC_COUNT.name} rows, which sqlnb writes only for a "
                    "model with a document transform (idf, sublinear_tf, doc_norm): this has none"
                )
            return None
        if DOC_COUNT.name in staged and not n_count:
            return f"no {DOC_COUNT.name} row: a model with a document transform has one"
        if DOC_COUNT.name not in staged:
            n = rows[CLASSES][2]
        if most_df is not None and n is not None and float(most_df) > float(n):
            return (
                f"a document frequency (df) of {float(most_df):g} in {DOC_FREQ.name}, above "
                f"the {float(n):g} training documents"
            )
        return None

    def append(self, model: str, params: Params) -> None:
        found = Tfidf.of(params)
        if found is not None and found.idf_in_counts:
            raise SqlnbError(
                f"model {model!r} weighs each document by an idf over all training documents "
                "before its norm (--idf with --doc-norm): appending would need the old "
                "documents again; train on all of them"
            )


@dataclass(frozen=True)
class TextTerms(Terms):
    """A text model's terms: per known word of a document, its count (as the template
    ``scored`` reads the tokens, ``transformed`` by the model's document transform) times the
    word's weight; with ``absent`` (Bernoulli), minus the word's weight of absence, whose sum
    over the vocabulary the base holds; with ``zeros``, the count of probability-0 factors.
    ``transforms``: whether models of the kind may have a document transform."""

    scored: str
    absent: bool
    zeros: bool
    transformed: bool
    transforms: bool

    def base(self, model: Name) -> exp.Expr:
        return templates.render("text/base.sql", model=model)

    def parts(self, model: Name) -> exp.Expr:
        scored = templates.select(self.scored, tokens=exp.to_table(TOKENS))
        if self.transformed:
            scored = apply(model, scored)
        return wide.parts(model, scored, zeros=self.zeros, absent=self.absent)

    @property
    def signature(self) -> tuple[Any, ...]:
        return (self.transformed, self.zeros)

    def variants(self, model: Name, *, transformed: bool = True) -> list[tuple[Terms, Any]]:
        """Probability-0 factors allowed for; where the kind takes a document transform, a
        model that has one (:func:`sqlnb.kinds.tfidf.stored`) has the transformed terms, one without
        the plain terms (its words not looked up in sqlnb_transform)."""
        plain = replace(self, zeros=True, transformed=False)
        if not transformed or not self.transforms:
            return [(plain, None)]
        has = stored(model)
        return [(plain, exp.not_(has)), (replace(plain, transformed=True), has.copy())]


class TextKind(Kind):
    reads = (Tokens, Docs)
    counting = "multinomial/count.sql"  # the statement that counts
    carrying = "multinomial/count_carried.sql"  # the same, the tokens carrying their label
    scored = "text/tokens.sql"  # the tokens a document is scored by
    binary = False  # whether a word scores once however often it occurs (Bernoulli)
    score = "weights/log_theta.sql"  # a word's score per class
    # The formulas of the columns of sqlnb_scoring (see wide.py), by their prefix.
    weights: ClassVar[dict[str, str]]
    tables: ClassVar[tuple[ModelTable, ...]] = (
        WORD_COUNTS,
        DOC_FREQ,
        DOC_COUNT,
        SCORING,
        BASE,
        TRANSFORM,
        LOG_THETA,
    )
    checks: ClassVar[base.Checks] = TextChecks()

    def inputs(
        self,
        db: Database,
        source: Any,
        params: Params,
        *,
        tokenizer: Tokenizer | None = None,
        dialect: str | None = None,
    ) -> Inputs:
        if isinstance(source, Docs):
            settings = params.get("tokenizer")
            if settings is None:
                raise SqlnbError(
                    "this model was trained from a tokens table, so it has no "
                    "tokenizer: classify a tokens table (--tokens)"
                )
            tokenizer = tokenizer or Tokenizer.from_dict(settings)
            return {TOKENS: tokenizer.tokens(source, db, grouped=False, dialect=dialect)}
        if not isinstance(source, Tokens):
            raise SqlnbError(f"a {self.name} model reads a tokens table, not --table")
        return {TOKENS: source.query(db)}

    def documents(self, db: Database, source: Any, inputs: Inputs) -> exp.Select:
        if isinstance(source, Docs):  # every document, also those without a token
            return source.ids(db)
        # A copy of the tokens query, not the relation the parts read: a relation read twice is
        # materialised (on DuckDB), which costs more time and memory than a second scan.
        return templates.select("input/documents.sql", source=inputs[TOKENS].subquery("t"))

    def count(self, model: str, inputs: Inputs, labeled: Labeled, params: Params) -> list[exp.Expr]:
        tokens: exp.Query = inputs[TOKENS]
        statements: list[exp.Expr] = []
        document = Tfidf.of(params)
        if document is not None:  # the document frequencies first: the transform reads them
            statements, tokens = document.count(model, tokens, labeled.labels)
        with_labels = None
        if labeled.carried is not None and document is None:
            with_labels = carried(tokens, *labeled.carried)
        if with_labels is not None:  # no join back to the documents' labels
            # the classes by their label's text: as the labels' survey read them, where known
            classes = labeled.known
            if classes is None:
                classes = templates.select("input/text_classes.sql", classes=labeled.classes)
            counting = templates.render(
                self.carrying, model=model, tokens=with_labels, classes=classes
            )
        else:
            counting = templates.render(
                self.counting,
                model=model,
                tokens=tokens,
                labels=labeled.labels,
                classes=labeled.classes,
            )
        return [*statements, counting]

    def terms(self, params: Params) -> TextTerms:
        """A document's (word, count) bag, as the kind scores it (``scored``), each word's
        count times its weight (:mod:`sqlnb.kinds.wide`), the document transform first."""
        return TextTerms(
            self.scored,
            absent="a" in self.weights,
            zeros=self.may_be_zero(params),
            transformed=Tfidf.of(params) is not None,
            transforms=any(h in self.hyperparameters for h in TRANSFORMS),
        )

    def may_be_zero(self, params: Params) -> bool:
        """Whether the model can hold probability-0 factors (theta = 0 needs alpha = 0)."""
        return bool(params["alpha"] == 0)

    def smoothing(self, params: Params) -> dict[str, exp.Expr]:
        """The hyperparameters the weight formulas use."""
        return {"alpha": templates.number(params["alpha"])}

    def derive(self, model: str, params: Params, n_classes: int) -> list[exp.Expr]:
        """The wide weights from the counts, then the per-class base."""
        smoothing = self.smoothing(params)

        def weight(name: str) -> wide.Weight:
            return lambda bindings: wide.formula(name, {**bindings, **smoothing})

        families = {prefix: weight(name) for prefix, name in self.weights.items()}
        statements: list[exp.Expr] = []
        counts = None
        document = Tfidf.of(params)
        if document is not None:  # the counts times the idf they leave out (see count)
            statements, counts = document.derive(model)
        return [
            *statements,
            wide.derive(model, families, counts, n_classes=n_classes),
            self.derive_base(model),
        ]

    def derive_base(self, model: str) -> exp.Expr:
        """Insert the per-class base (sqlnb_base) from the prior and the weights."""
        return templates.render("multinomial/base.sql", model=model)

    def n_features(self, model: str, params: Params) -> exp.Expr:
        return templates.render("text/n_features.sql", model=model)

    def scores(self, model: str) -> exp.Expr:
        """Per (class_id, word) the score of a word's presence (for the linear form and the
        contributions)."""
        return templates.render(self.score, model=model)

    def contributions(self, model: str, params: Params) -> exp.Expr:
        """Per (doc_id, class_id, word): the word's summed count in the document, and its
        score times that count (Bernoulli: times 1, for presence)."""
        tokens: exp.Query = exp.select("*").from_(TOKENS)
        if Tfidf.of(params) is not None:
            tokens = apply(model, tokens)
        return templates.render(
            "explain/words.sql", tokens=tokens, scores=self.scores(model), binary=self.binary
        )

    def describe(self, db: Database, model: str, top: int) -> list[Section]:
        words = db.fetch_dicts(templates.render("show/top_words.sql", model=model, top=top))
        return [Ranked("words", "most indicative words", words)]


class Multinomial(TextKind):
    """A document is a bag of word counts."""

    name = "multinomial"
    weights: ClassVar[dict[str, str]] = {"w": "multinomial/weight.sql"}
    hyperparameters: ClassVar[tuple[Hyper, ...]] = (ALPHA, *TRANSFORMS, *PRIORS, CLASS_WEIGHT)


class Complement(Multinomial):
    """Rennie et al. (2003), as scikit-learn's ComplementNB: weights from the other classes'
    counts, no class prior."""

    name = "complement"
    weights: ClassVar[dict[str, str]] = {"w": "complement/weight.sql"}
    hyperparameters: ClassVar[tuple[Hyper, ...]] = (ALPHA_POSITIVE, NORM, *TRANSFORMS, CLASS_WEIGHT)

    def smoothing(self, params: Params) -> dict[str, exp.Expr]:
        return {**super().smoothing(params), "norm": exp.convert(bool(params["norm"]))}

    def derive_base(self, model: str) -> exp.Expr:
        return templates.render("complement/base.sql", model=model)


class Bernoulli(TextKind):
    """A document is the set of words it contains; absent words count too."""

    name = "bernoulli"
    counting = "bernoulli/count.sql"
    carrying = "bernoulli/count_carried.sql"
    scored = "bernoulli/present.sql"
    binary = True
    score = "weights/presence.sql"
    weights: ClassVar[dict[str, str]] = {"w": "bernoulli/weight.sql", "a": "bernoulli/absent.sql"}
    tables = (*TextKind.tables, LOG_ABSENT)
    hyperparameters: ClassVar[tuple[Hyper, ...]] = (ALPHA, BETA, *PRIORS, CLASS_WEIGHT)

    def smoothing(self, params: Params) -> dict[str, exp.Expr]:
        return {**super().smoothing(params), "beta": templates.number(_beta(params))}

    def may_be_zero(self, params: Params) -> bool:
        """theta = 0 needs alpha = 0, and 1 - theta = 0 needs beta = 0."""
        return bool(params["alpha"] == 0 or _beta(params) == 0)

    def derive_base(self, model: str) -> exp.Expr:
        return templates.render("bernoulli/base.sql", model=model, absent=wide.absent_sums(model))


CARRIED = ("sqlnb_label", "sqlnb_weight")


def carrying(source: Any, labels: Labels, labeled: Labeled, others: tuple[Any, ...]) -> Labeled:
    """``labeled``, whose tokens carry the labels of their rows where they are a docs table's
    own (``labels`` read from ``source``), neither weighted per class nor filtered by the
    ``others`` (class weights, a selection, pruning); the classes numbered from the labels
    alone."""
    if not isinstance(source, Docs) or labels.table != source.table or any(others):
        return labeled
    weight = exp.convert(1) if labels.weight is None else exp.column(labels.weight, quoted=True)
    label = exp.column(labels.label, quoted=True)
    named = exp.select(label.copy().as_("label")).from_(source.node())  # its labels, no ids
    classes = templates.select("input/classes.sql", labels=named.subquery("l"))
    return replace(labeled, classes=classes, carried=(label, exp.cast(weight, "DOUBLE")))


def carried(tokens: exp.Query, label: exp.Expr, weight: exp.Expr) -> exp.Query | None:
    """The tokens query of a docs table (doc_id, word, count) with two more columns,
    :data:`CARRIED`: ``label`` and ``weight``, expressions over the docs table's row, taken
    where the row is read and passed along beside doc_id by every select that passes doc_id
    on, so that counting needs no join back to the documents' labels (issue 38). None where
    the query has a shape this does not follow (doc_id computed, grouped by, or not passed)."""
    out = tokens.copy()
    for select in list(out.find_all(exp.Select)):
        ids = [p for p in select.expressions if p.alias_or_name == "doc_id"]
        if not ids:
            continue
        inner = ids[0].unalias()
        if len(ids) > 1 or not isinstance(inner, exp.Column) or select.args.get("group"):
            return None
        for name, value in zip(CARRIED, (label, weight), strict=True):
            taken = exp.column(name, table=inner.table) if inner.table else value.copy()
            select.select(exp.alias_(taken, name), append=True, copy=False)
    names = {p.alias_or_name for p in out.selects} if isinstance(out, exp.Select) else set()
    return out if set(CARRIED) <= names else None


def linear(kind: Kind, model: str, params: Params) -> exp.Expr | None:
    """Per (class_id, word) what one count of a word adds to a class's joint log-likelihood,
    where a document's counts add up linearly (the two-class linear form); None where a
    model has no per-word scores (a table kind)."""
    if not isinstance(kind, TextKind):
        return None
    document = Tfidf.of(params)
    if document is not None and not document.linear:
        raise SqlnbError(
            f"model {model!r} transforms its documents (--sublinear-tf or --doc-norm): their "
            "counts do not add up linearly, so it has no linear form"
        )
    if document is None or document.idf == "none":
        return kind.scores(model)
    return templates.render("tfidf/scores.sql", scores=kind.scores(model), model=model)


def _beta(params: Params) -> float:
    """Bernoulli's beta: alpha unless given."""
    return float(params["alpha"] if params["beta"] is None else params["beta"])


def has_word(the_kind: Kind, inputs: Inputs, labeled: Labeled, params: Params) -> exp.Select | None:
    """The query of one row where a text kind's training (:meth:`TextKind.count`) learns a
    word (no row: none), as it reads its ``inputs`` and ``labeled`` documents, for a write that
    must refuse a training without words before it writes. None for a kind without words, and
    with a document transform, whose weights can turn a count to 0. (Not a member of
    :class:`Kind`: the contract stays narrow; training asks it of text kinds alone.)"""
    if not isinstance(the_kind, TextKind) or Tfidf.of(params) is not None:
        return None
    tokens: exp.Query = inputs[TOKENS]
    if labeled.carried is not None:
        with_labels = carried(tokens, *labeled.carried)
        if with_labels is not None:
            return templates.select("text/has_word_carried.sql", tokens=with_labels)
    return templates.select("text/has_word.sql", tokens=tokens, labels=labeled.labels)
