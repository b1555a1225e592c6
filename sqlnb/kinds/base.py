"""What a model kind provides: small pieces over the shared storage and prediction path.

A kind is the only place that knows what a kind of model reads, stores and scores. The rest of
sqlnb (training, the catalog, prediction, evaluation, explanations, model files, the report
and the command line) asks the kind and never branches on its name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sqlglot import exp

from sqlnb import templates

if TYPE_CHECKING:
    from sqlnb.engine import Database
    from sqlnb.kinds.params import Hyper
    from sqlnb.kinds.terms import Terms
    from sqlnb.tokenizer import Tokenizer

Params = dict[str, Any]
# A model's name: a literal, or an expression that gives it (a macro's parameter).
Name = str | exp.Expr
Inputs = dict[str, exp.Query]


@dataclass(frozen=True)
class Section:
    """One part of what a kind tells about a trained model. ``show``, the report and the API
    draw a section by its form (its class), never by the kind: ``name`` is its key in JSON,
    ``title`` its heading, ``rows`` its rows (dicts with the keys its form names)."""

    name: str
    title: str
    rows: list[dict[str, Any]]

    def top(self, n: int) -> Section:
        """The section as ``show`` prints it, with at most ``n`` rows per class where its
        form ranks them."""
        return self


@dataclass(frozen=True)
class Ranked(Section):
    """Each class's best ``item``s (rows: label, the item, score; best first), e.g. words."""

    item: str = "word"


@dataclass(frozen=True)
class Normal(Section):
    """A normal distribution per feature and class (rows: feature, label, mean, var)."""


@dataclass(frozen=True)
class Rows(Section):
    """Rows drawn as a table: their keys the columns, in order (e.g. EM's iterations)."""


@dataclass(frozen=True)
class Note(Section):
    """A line of ``text`` that sums up its rows (e.g. a model's calibration)."""

    text: str = ""


@dataclass(frozen=True)
class Frequencies(Section):
    """A probability per feature, value and class (rows: feature, value, label,
    probability)."""

    def top(self, n: int) -> Section:
        """The ``n`` most probable values of each feature in each class."""
        groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for r in self.rows:
            groups.setdefault((r["feature"], r["label"]), []).append(r)
        kept = [r for g in groups.values() for r in sorted(g, key=lambda r: -r["probability"])[:n]]
        return Frequencies(self.name, self.title, kept)


@dataclass(frozen=True)
class ModelTable:
    """One of the tables a model keeps its rows in (with its name in column ``model``).

    ``counts`` tables hold the sufficient statistics: they are what a model file carries and
    what appending adds up (with the :attr:`merge` query, under the merged class numbering);
    the other tables are derived from them. A ``view`` is derived too, but holds no rows of
    its own: it reads other tables for every model at once. ``columns`` are the columns after
    ``model``.
    """

    name: str
    columns: tuple[str, ...]
    counts: bool = False
    view: bool = False
    # What a count table's rows must be (checked in model files, and after counting):
    # ``keys``, column sets that are unique and never NULL; ``amounts``, numbers that are
    # finite and >= 0 and add up to a finite number; ``finite``, finite numbers; ``whole``,
    # amounts that sqlnb writes as whole numbers > 0 (documents counted once); ``choices``,
    # (column, the values sqlnb writes there), one of which a model's rows all hold;
    # ``single``, at most one row a model. A class_id must be one of the model's classes.
    keys: tuple[tuple[str, ...], ...] = ()
    amounts: tuple[str, ...] = ()
    finite: tuple[str, ...] = ()
    whole: tuple[str, ...] = ()
    choices: tuple[tuple[str, tuple[str, ...]], ...] = ()
    single: bool = False
    # A count table that model files written before it existed lack (then it has no rows).
    optional: bool = False
    # The columns the SQL functions look its rows up by, one text's words at a time (where
    # the engine has indexes for that: Dialect.lookup).
    lookup: tuple[str, ...] = ()
    # The folder of its own SQL (a kind's: sql/<kind>/create_<name>.sql, append_<name>.sql),
    # or None for the tables every kind or every text kind shares (sql/catalog/, sql/append/).
    folder: str | None = None
    # The statement that fills in the rows an earlier sqlnb did not write for its models, run
    # before the SQL functions (which read them) are rebuilt.
    backfill: str | None = None

    @property
    def create(self) -> str:
        """Its CREATE TABLE (or VIEW) IF NOT EXISTS: ``sql/catalog/create_<name>.sql`` (or in
        its folder)."""
        short = self.name.removeprefix("sqlnb_")
        return f"{self.folder}/create_{short}.sql" if self.folder else f"catalog/create_{short}.sql"

    @property
    def merge(self) -> str:
        """Appending: the model's and the new batch's counts added up,
        ``sql/append/<name>.sql`` (or ``append_<name>.sql`` in its folder)."""
        short = self.name.removeprefix("sqlnb_")
        return f"{self.folder}/append_{short}.sql" if self.folder else f"append/{short}.sql"

    def node(self) -> exp.Table:
        return templates.table(self.name)

    def types(self) -> dict[str, str]:
        """Its columns, ``model`` first, and their types (DuckDB's spelling), from its CREATE."""
        schema = templates.parsed(self.create).this
        return {c.name: c.args["kind"].sql(templates.SOURCE_DIALECT) for c in schema.expressions}


@dataclass(frozen=True)
class Labeled:
    """The labeled documents of a training: ``labels`` (doc_id, label, weight), ``classes``
    (label, class_id: the labels numbered in sorted order), and both joined as :attr:`rows`
    (doc_id, label, weight, class_id). Counting by label, then numbering the counts, joins
    the classes to the counts rather than to every token. ``carried`` (label, weight): the
    expressions of a docs table's own label and sample weight, which its tokens can carry
    from their row (:func:`sqlnb.kinds.text.carried`) instead of joining ``labels``.
    ``known``: the classes as the labels' survey read them (class_id, label as text, weight:
    the documents' summed sample weight; :func:`sqlnb.classes.known`), which the classes and
    the prior are written from without reading the labels again."""

    labels: exp.Query
    classes: exp.Query
    carried: tuple[exp.Expr, exp.Expr] | None = None
    known: exp.Query | None = None

    @classmethod
    def of(cls, labels: exp.Query, known: exp.Query | None = None) -> Labeled:
        return cls(labels, templates.select("input/classes.sql", labels=labels), known=known)

    @property
    def rows(self) -> exp.Select:
        return templates.select("input/labeled.sql", labels=self.labels, classes=self.classes)

    @property
    def summed(self) -> exp.Query:
        """What sql/train/classes.sql sums per class: the classes as surveyed where known,
        else every labeled document (:attr:`rows`)."""
        return self.known if self.known is not None else self.rows


class Checks:
    """What a kind refuses beyond its hyperparameters' ranges, one method a moment: a
    trained model (:meth:`trained`), an append (:meth:`append`), a model file's settings and
    counts (:meth:`settings`, :meth:`file`), a source's values never seen in training
    (:meth:`unseen`). Each kind's module gives its own; this one refuses nothing."""

    def trained(self, db: Database, model: str, params: Params) -> None:
        """Refuse a trained model whose parameters are unusable (runs inside the
        transaction)."""

    def append(self, model: str, params: Params) -> None:
        """Refuse appending to a model whose counts cannot simply be added to (they depend
        on all its training documents at once)."""

    def settings(self, params: Params) -> None:
        """Refuse stored settings (a model file's) that the kind's training would not
        write."""

    def file(self, db: Database, staged: dict[str, exp.Table], params: Params) -> str | None:
        """The first way a model file's count tables (``staged``: by table name, those the
        file has) disagree with each other or with its settings where sqlnb writes them in
        agreement (each table's own rules are :class:`ModelTable`'s), in words, or None."""
        return None

    def unseen(self, db: Database, model: str, inputs: Inputs) -> tuple[str, str] | None:
        """A (feature, value) of the input never seen in training, if the kind can tell."""
        return None


class Kind:
    """A Naive Bayes event model: reading, counting, deriving, describing, and its terms.

    - ``name``: what users call it (``--kind``).
    - ``reads``: the input sources it trains from and classifies (a tokens table, raw text, a
      wide table).
    - ``tables``: its own tables besides the shared ones; those marked ``counts`` hold its
      sufficient statistics, the rest is derived from them.
    - ``hyperparameters``: the ones it takes (:mod:`sqlnb.kinds.params`; resolved and checked
      by :func:`sqlnb.kinds.params.resolved`).
    - :meth:`prepare`: the settings a training takes from its source.
    - :meth:`inputs`: a source read into named relations.
    - :meth:`documents`: every document of a source to classify.
    - :meth:`count`: the statements that insert the sufficient statistics.
    - :meth:`derive`: the statements that derive the parameters from the stored counts.
    - ``checks``: what it refuses (:class:`Checks`: a trained model, an append, a model
      file, unseen values).
    - :meth:`n_features`: how many features (words) a trained model has.
    - :meth:`terms`: a model's terms of the joint log-likelihood (:class:`sqlnb.kinds.terms.
      Terms`), which every scoring form asks (predict, explain, the SQL functions).
    - :meth:`contributions`: those terms per feature, not summed (explain, the report).
    - :meth:`describe`: what a trained model learned, as typed sections.

    The classes, priors, catalog, log-sum-exp, argmax and evaluation are shared. What the
    other concerns say of a kind is theirs, keyed by it: EM's refusals and log prior
    (:mod:`sqlnb.semisupervised`), the linear form (:mod:`sqlnb.pipeline`), how the command
    line and the report name its features (:mod:`sqlnb.kinds.presentation`); the SQL
    functions serve the kinds that read raw text.
    """

    name: ClassVar[str]
    reads: ClassVar[tuple[type, ...]]
    tables: ClassVar[tuple[ModelTable, ...]]
    hyperparameters: ClassVar[tuple[Hyper, ...]]

    # --- reading ---------------------------------------------------------------------------

    def prepare(self, db: Database, source: Any, params: Params) -> Params:
        """The settings a training takes from its source (a table's features), added to
        ``params``."""
        return params

    def inputs(
        self,
        db: Database,
        source: Any,
        params: Params,
        *,
        dialect: str | None = None,
        tokenizer: Tokenizer | None = None,
    ) -> Inputs:
        """The input as named queries (their names are the CTE names used by ``parts``), in
        the SQL of the engine ``dialect`` (default: the database's own); raw text tokenized
        by ``tokenizer`` where given (a training's, with the table its stop words came from),
        else by the model's."""
        raise NotImplementedError

    def documents(self, db: Database, source: Any, inputs: Inputs) -> exp.Select:
        """Every document (row) of a source to classify, as (doc_id); ``inputs`` are the
        source's relations as :meth:`inputs` made them."""
        raise NotImplementedError

    # --- training --------------------------------------------------------------------------

    def count(self, model: str, inputs: Inputs, labeled: Labeled, params: Params) -> list[exp.Expr]:
        """Statements that insert the sufficient statistics."""
        raise NotImplementedError

    def derive(self, model: str, params: Params, n_classes: int) -> list[exp.Expr]:
        """Statements that insert the derived parameters from the stored counts of
        ``n_classes`` classes (0: any number, the classes numbered 0 ... n - 1 otherwise)."""
        raise NotImplementedError

    checks: ClassVar[Checks] = Checks()

    def n_features(self, model: str, params: Params) -> exp.Expr:
        raise NotImplementedError

    # --- scoring ---------------------------------------------------------------------------

    def terms(self, params: Params) -> Terms:
        """The terms of the joint log-likelihood of a model trained with ``params``."""
        raise NotImplementedError

    # --- explaining ------------------------------------------------------------------------

    def contributions(self, model: str, params: Params) -> exp.Expr:
        """Per (doc_id, class_id, feature) the feature's score: the parts, not summed. One
        definition for ``explain`` and the report."""
        raise NotImplementedError

    def describe(self, db: Database, model: str, top: int) -> list[Section]:
        """What ``show``, the report and the API say about a trained model beyond its classes
        (``top``: the number of best items per class a :class:`Ranked` section holds)."""
        return []
