"""The Python API, in scikit-learn's vocabulary: a thin facade over training and the pipeline.

>>> import duckdb, sqlnb
>>> con = duckdb.connect()
>>> _ = con.execute("CREATE TABLE tokens AS SELECT * FROM (VALUES "
...     "(1, 'chinese', 2), (1, 'beijing', 1), (2, 'chinese', 2), (2, 'shanghai', 1), "
...     "(3, 'chinese', 1), (3, 'macao', 1), (4, 'tokyo', 1), (4, 'japan', 1), (4, 'chinese', 1)"
...     ") AS t(doc_id, word, count)")
>>> _ = con.execute("CREATE TABLE labels AS SELECT * FROM (VALUES "
...     "(1, 'china'), (2, 'china'), (3, 'china'), (4, 'japan')) AS t(doc_id, label)")
>>> nb = sqlnb.train(con, "tokens", "labels", model="chinese")
>>> _ = con.execute("CREATE TABLE test AS SELECT * FROM (VALUES "
...     "(5, 'chinese', 3), (5, 'tokyo', 1), (5, 'japan', 1)) AS t(doc_id, word, count)")
>>> [(doc, label, round(p, 4)) for doc, label, p in nb.predict("test").fetchall()]
[(5, 'china', 0.6898)]
>>> [(label, round(p, 4)) for _, label, p in nb.predict_proba("test").order("label").fetchall()]
[('china', 0.6898), ('japan', 0.3102)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlglot import exp

from sqlnb import (
    calibration,
    catalog,
    decisions,
    multilabel,
    pipeline,
    settings,
    templates,
    training,
    versions,
)
from sqlnb.calibration import Calibration
from sqlnb.catalog import Entry
from sqlnb.engine import Database, scratch
from sqlnb.errors import SqlnbError
from sqlnb.features import Selection
from sqlnb.inputs import Labels, Source, as_source, type_family
from sqlnb.kinds.base import Note, Ranked, Rows, Section
from sqlnb.multilabel import counting, given, listing, metrics, refuse
from sqlnb.pruning import Pruning
from sqlnb.tokenizer import Tokenizer


def connect(target: Any, *, create: bool = False, read_only: bool = False) -> Database:
    """A :class:`Database` from a path, URL or open connection."""
    return Database.connect(target, create=create, read_only=read_only)


@dataclass(frozen=True)
class Model(Entry):
    """A trained model in a database: predictions are SQL run there."""

    db: Database = field(kw_only=True)

    @classmethod
    def of(cls, db: Database, entry: Entry) -> Model:
        """The model of a catalog entry, in database ``db``."""
        return cls(entry.name, entry.kind_name, entry.params, entry.label_type, entry.info, db=db)

    def _check_current(self) -> None:
        pipeline.ensure_current(self.db, self)

    def _run(self, query: exp.Select) -> Any:
        """A query's result (see :meth:`Database.relation`). Where the engine returns rows at
        once and cannot fail a query from inside (SQLite, PostgreSQL), the catalog is read again
        afterwards: unchanged since the load, the query read the loaded model."""
        result = self.db.relation(query)
        if self.db.dialect.fail is None:
            self._check_current()
        return result

    # --- prediction ----------------------------------------------------------------------

    def prediction_query(self, data: str | Source, **options: Any) -> exp.Select:
        """The query of predict's output: (doc_id, label, proba), or with ``proba=True`` one
        row per (document, class): (doc_id, label, log_proba, proba). The input is checked
        first (NULL ids, bad counts) unless ``check=False`` (for a query kept to run later);
        the other options are :func:`sqlnb.pipeline.prediction`'s."""
        return pipeline.prediction(self.db, self, data, **options)

    def predict(self, data: str | Source) -> Any:
        """(doc_id, label, proba): the predicted label of every document. A lazy relation: on
        DuckDB a ``DuckDBPyRelation`` (``.df()``, ``.pl()``, ``.arrow()``), on Spark a
        DataFrame; on SQLite and PostgreSQL the rows."""
        return self._run(self.prediction_query(data))

    def _columns(self, data: str | Source, *names: str) -> Any:
        query = self.prediction_query(data, proba=True)
        return self._run(exp.select(*names).from_(query.subquery("p")))

    def predict_proba(self, data: str | Source) -> Any:
        """(doc_id, label, proba): every class's posterior of every document."""
        return self._columns(data, "doc_id", "label", "proba")

    def predict_log_proba(self, data: str | Source) -> Any:
        """(doc_id, label, log_proba); NULL log_proba means -infinity."""
        return self._columns(data, "doc_id", "label", "log_proba")

    def prediction_statements(
        self, data: str | Source, output: str, *, replace: bool = False, **options: Any
    ) -> list[exp.Expr]:
        """The statements that write predictions to table ``output`` (with ``guard=False``, for
        a script to run later, they do not check that the model is still the one loaded)."""
        query = self.prediction_query(data, **options)
        return self.db.output_statements(output, query, replace=replace)

    def predict_to(
        self, data: str | Source, output: str, *, replace: bool = False, **options: Any
    ) -> int:
        """Write predictions to table ``output`` (``proba=True``: one row per class;
        ``unseen="error"``: refuse categorical values never seen in training); returns its
        number of rows."""
        self.db.backend.check_writable()  # refused before the work, not after it
        if not replace and self.db.exists(templates.table(output)):
            raise SqlnbError(f"output table {output!r} already exists (use --replace)")
        query = self.prediction_query(data, early=False, **options)  # (the load's read)
        self.db.stage("scoring")  # (the query checks the model where the engine can fail it)
        verify = None if self.db.dialect.fail else self._check_current
        return self.db.write_table(output, query, replace=replace, verify=verify)

    def classify(
        self,
        table: str,
        id_column: str,
        data: str | Source,
        into: str,
        proba_into: str | None = None,
        cost_into: str | None = None,
        **options: Any,
    ) -> int:
        """Write the predicted label (and its probability, and with costs its expected cost)
        into columns of the user's own table, added if missing, in one transaction; every
        other column and row stays as it was. Every row is classified (a row without tokens
        gets the prior). ``options`` are :meth:`decision_options`' (calibration, new priors,
        costs). Returns the number of rows updated."""
        multi = multilabel.marked(self.params)  # labels as a list (sqlnb.multilabel)
        target = templates.table(table)
        columns = self.db.columns(target)
        if id_column not in columns:
            raise SqlnbError(f"table {table!r} has no id column {id_column!r}")
        if cost_into is not None and options.get("costs") is None:
            raise SqlnbError("an expected cost column needs --costs")
        for name in (into, proba_into, cost_into):
            if name == id_column:
                raise SqlnbError(f"cannot write predictions into the id column {id_column!r}")
        rows = templates.select(
            "input/ids.sql", id=templates.col(id_column, quoted=True), source=target
        )
        if multi:
            predictions = listing.classified(self.db, self, data, documents=rows, **options)
            label_type = multilabel.list_type(self.db, self.label_type)
            multilabel.check_column(self.name, table, into, columns.get(into), label_type)
        else:
            predictions = self.prediction_query(data, documents=rows, **options)
            label_type = (
                exp.DataType.build(self.label_type, dialect=templates.SOURCE_DIALECT)
                if type_family(self.label_type) != "text"
                else exp.DataType.build("VARCHAR")
            )
        written = {into: ("label", label_type)}
        if proba_into is not None:
            written[proba_into] = ("proba", exp.DataType.build("DOUBLE"))
        if cost_into is not None:
            written[cost_into] = ("expected_cost", exp.DataType.build("DOUBLE"))
        statements = self.db.update_statements(target, id_column, predictions, written)
        self.db.stage("classifying")
        with self.db.transaction(models=False):
            for statement in statements:
                self.db.execute(statement)
            self._check_current()
        count = exp.select(exp.func("COUNT", exp.Star())).from_(target.copy())
        return int(self.db.fetch(count)[0][0])

    # --- explanations, the linear form, evaluation ---------------------------------------

    def explanation_query(
        self, data: str | Source, *, doc: str | None = None, top: int | None = None
    ) -> exp.Select:
        """(doc_id, feature, contribution): why each document got its label rather than the
        runner-up; a document's contributions add up to log P(label) - log P(runner-up)."""
        refuse(self, "explain")
        return pipeline.explanation(self.db, self, data, doc=doc, top=top)

    def explain(self, data: str | Source, *, doc: str | None = None, top: int | None = None) -> Any:
        """The explanation as a lazy relation (see :meth:`explanation_query`)."""
        return self._run(self.explanation_query(data, doc=doc, top=top))

    def weights_query(self) -> exp.Select:
        """(feature, weight): a two-class text model as a linear classifier."""
        refuse(self, "weights")
        return pipeline.weights(self)

    def evaluation_statements(
        self,
        data: str | Source,
        labels: str | Labels | None = None,
        *,
        guard: bool = True,
        dialect: str | None = None,
        calibrate: bool = True,
        early: bool = True,
    ) -> tuple[exp.Expr, list[exp.Expr], exp.Expr]:
        """(create the outcomes temp table, [confusion, per_class, summary, reliability], drop
        it), for the engine ``dialect`` (default: the database's own), of the calibrated
        probabilities unless ``calibrate`` is off (``early``: :meth:`Pipeline.build`'s)."""
        evaluated = pipeline.evaluation_pipeline(self.db, self, data, labels, guard=guard,
            dialect=dialect, calibrate=calibrate, early=early)  # fmt: skip
        return pipeline.evaluation(evaluated, self.name, dialect or self.db.dialect.name)

    def evaluate(
        self, data: str | Source, labels: str | Labels | None = None, *, calibrate: bool = True
    ) -> dict[str, Any]:
        """Accuracy, macro-F1, log-loss, the Brier score, the expected calibration error (15
        bins), per-class precision/recall/F1/support, confusion, the reliability bins; for a
        multi-label model, its metrics (:mod:`sqlnb.multilabel.metrics`)."""
        if multilabel.marked(self.params):
            return metrics.evaluate(self.db, self, data, labels)
        create, queries, drop_it = self.evaluation_statements(data, labels, calibrate=calibrate,
                                                              early=False)  # fmt: skip
        confusion, per_class, summary, reliability = queries
        self.db.stage("scoring")
        self.db.execute(create)  # a scratch name: nothing to drop first
        try:
            if not self.db.dialect.fail:  # else the query checked it (sql/predict/current.sql)
                self._check_current()
            head = self.db.fetch_dicts(summary)[0]
            classes = self.db.fetch_dicts(per_class)
            matrix = self.db.fetch_dicts(confusion)
            bins = self.db.fetch_dicts(reliability)
        finally:
            self.db.execute(drop_it)
        found = {
            "n_docs": int(head["n_docs"]),
            "accuracy": head["accuracy"],
            "macro_f1": head["macro_f1"],
            "log_loss": head["log_loss"],
            "brier": head["brier"],
            "ece": head["ece"],
            "per_class": {
                r["label"]: {k: r[k] for k in ("precision", "recall", "f1", "support")}
                for r in classes
            },
            "confusion": [
                {"true": r["true_label"], "predicted": r["predicted"], "count": int(r["count"])}
                for r in matrix
            ],
            "reliability": [
                {"bin": int(b["bin"]), "n_docs": int(b["n_docs"])}
                | {k: b[k] for k in ("confidence", "accuracy")}
                for b in bins
            ],
        }
        if self.params.get("hierarchy"):  # labels that form a tree: the accuracy at each depth
            depths = pipeline.depth_accuracy(self.db, self, data, labels, calibrate)
            found["depth_accuracy"] = depths
        return found

    # --- calibration and decisions --------------------------------------------------------

    def calibrate(
        self,
        data: str | Source,
        labels: str | Labels | None = None,
        method: str = settings.METHOD.default,
        keep: int = versions.KEEP,
    ) -> Calibration:
        """Fit a calibration of the model's probabilities on held-out labeled documents and
        store it with the model, replacing any other (``method="none"`` removes it); every
        prediction then uses it (see :mod:`sqlnb.calibration`)."""
        self._check_current()
        fitted = calibration.fit(self.db, self, data, labels, method)
        self.info.pop(catalog.METHOD, None)  # (it changes: read again where it is applied)
        written = training.Training(self.db, self.name, self.kind, self.params, [])
        written.command, written.keep = "calibrate", keep
        with self.db.transaction():
            kept = versions.before_write(self.db, self.name)
            for statement in catalog.creates(self.db, self.kind):
                self.db.execute(statement)
            for statement in fitted.statements(self.name):
                self.db.execute(statement)
            self._check_current()
            training.finish(written, kept=kept)
        return fitted

    def calibration(self) -> list[dict[str, Any]]:
        """The model's calibration rows (method, class_id, label, lo, hi, a, b); none: none."""
        if catalog.calibration(self.db, self.name, self) is None:
            return []
        return self.db.fetch_dicts(templates.render("calibrate/rows.sql", model=self.name))

    def new_priors(
        self,
        priors: str | dict[str, float],
        data: str | Source | None = None,
        *,
        calibrate: bool = True,
    ) -> dict[str, float]:
        """New class priors by label: given (``'spam=0.2,ham=0.8'``), or ``'estimate'``d by EM
        on the documents of ``data`` (:mod:`sqlnb.decisions`), from the calibrated posteriors
        unless ``calibrate`` is off (the probabilities the priors will adjust)."""
        refuse(self, "--priors")
        old = decisions.training_priors(self.db, self)
        labels = {int(c["class_id"]): str(c["label"]) for c in self.classes()}
        if isinstance(priors, dict) or priors != "estimate":
            new = decisions.given_priors(self.db, self, priors)
        else:
            if data is None:
                raise SqlnbError("--priors estimate needs the documents to estimate them on")
            final = exp.select("doc_id", "class_id", "proba").from_(pipeline.POSTERIOR)
            built = pipeline.Pipeline.build(self.db, self, data, calibrate=calibrate)
            query = built.select(final)
            self.db.stage("scoring")
            scored = self.db.temporary(scratch.name("sqlnb_scored"), query)
            try:
                self.db.stage("estimating priors")
                new, _ = decisions.estimate(self.db, scored, old)
            finally:
                self.db.drop_temporary(scored)
        return {labels[k]: p for k, p in new.items()}

    def decision_options(
        self,
        data: str | Source | None = None,
        *,
        priors: str | dict[str, float] | None = None,
        costs: str | None = None,
        calibrate: bool = True,
    ) -> dict[str, Any]:
        """The options of :meth:`prediction_query` for new ``priors`` (given or
        ``'estimate'``) and a ``costs`` table, checked."""
        options: dict[str, Any] = {"calibrate": calibrate}
        if priors is not None:
            by_label = self.new_priors(priors, data)
            ids = {str(c["label"]): int(c["class_id"]) for c in self.classes()}
            old = decisions.training_priors(self.db, self)
            options["priors"] = decisions.weights(old, {ids[k]: p for k, p in by_label.items()})
        if costs is not None:
            options["costs"] = decisions.costs(self.db, self, costs)
        return options

    # --- inspection ----------------------------------------------------------------------

    def classes(self) -> list[dict[str, Any]]:
        """The classes: class_id, label, documents and log prior, in class order."""
        return catalog.classes(self.db, self.name)

    def describe(self, top: int = 10) -> list[Section]:
        """What the model learned beyond its classes, in typed sections
        (:class:`sqlnb.kinds.base.Section`): as its kind describes it, the most indicative
        words per class (text), or per-class means, variances and category probabilities
        (tables); then, where it has them, EM's iterations and its calibration."""
        sections = self.kind.describe(self.db, self.name, top)
        em = self.params.get("em")
        if isinstance(em, dict) and em.get("history"):
            rows = [
                {"EM iteration": s["iteration"], "log-likelihood": s["log_likelihood"]}
                | {f"share {k}": v for k, v in s["shares"].items()}
                for s in em["history"]
            ]
            sections.append(Rows("em", "EM iterations", rows))
        calibration = self.calibration()
        if calibration:
            sections.append(
                Note("calibration", "calibration", calibration, calibrated(calibration))
            )
        return sections

    def top_words(self, top: int = 10) -> list[dict[str, Any]]:
        """The most indicative words of each class (text kinds)."""
        return next((s.rows for s in self.describe(top) if isinstance(s, Ranked)), [])


# --- the functions of the API ----------------------------------------------------------------


def load(db: Any, name: str = "default") -> Model:
    """The model called ``name``; an unknown name is a clear error."""
    database = connect(db)
    return Model.of(database, catalog.entry(database, name))


def models(db: Any) -> list[dict[str, Any]]:
    """Every model in the database, with its hyperparameters and classes."""
    return catalog.entries(connect(db))


def drop(db: Any, name: str) -> None:
    """Remove a model and all its rows."""
    training.drop(connect(db), name)


def train(
    db: Any,
    data: str | Source = "tokens",
    labels: str | Labels | None = None,
    *,
    model: str = "default",
    kind: str | None = None,
    tokenizer: Tokenizer | None = None,
    pruning: Pruning | None = None,
    select: str | None = None,
    unlabeled: str | Source | None = None,
    em: tuple[float, int, float] = (
        settings.EM_WEIGHT.default,
        settings.EM_ITERATIONS.default,
        settings.EM_TOLERANCE.default,
    ),
    keep: int = versions.KEEP,
    **hyperparameters: Any,
) -> Model:
    """Train (or retrain, atomically) a model in the database and return it.

    ``data`` is a tokens table (name or :class:`Tokens`; ``labels`` then defaults to
    ``"labels"``), a :class:`Docs` table of raw text, or a :class:`Table` (whose label column
    gives the labels). ``select="chi2:100"`` (or ``"mutual-info:100"``) keeps the 100 best
    words. With ``unlabeled`` (a tokens or docs table as ``data``), semi-supervised EM with
    ``em`` = (weight, iterations, tolerance) (:mod:`sqlnb.semisupervised`). ``keep``
    bounds the model's versions kept, the new one included (:mod:`sqlnb.versions`).
    ``hyperparameters`` are the kind's (``alpha=0.5``, ``fit_prior=False``, ...: the
    README's table, :mod:`sqlnb.kinds.params`); those not given take the kind's defaults;
    ones the kind does not declare are refused. ``multi_label=True`` (and ``threshold``):
    several labels per document (:mod:`sqlnb.multilabel`).
    """
    database = connect(db, create=True)
    if unlabeled is not None:
        from sqlnb import semisupervised

        if pruning is not None or select is not None:
            raise SqlnbError("EM (unlabeled) does not go with pruning or select")
        trained = semisupervised.train(
            database,
            data,
            labels,
            semisupervised.EM(as_source(unlabeled), *em),
            model=model,
            kind=kind,
            hyper=hyperparameters,
            tokenizer=tokenizer,
            keep=keep,
        )
        return Model.of(database, trained.entry)
    multi = bool(hyperparameters.pop("multi_label", False))  # several labels a document
    mode = given(multi, hyperparameters.pop("threshold", None))  # (sqlnb.multilabel)
    chosen = None if select is None else Selection.parse(select)
    mode.update(kind=kind, hyper=hyperparameters, tokenizer=tokenizer, pruning=pruning)
    trainer = counting.train if multi else training.train
    plan = trainer(database, data, labels, model=model, select=chosen, **mode)
    plan.keep = keep
    return Model.of(database, plan.apply())


def append(
    db: Any,
    data: str | Source = "tokens",
    labels: str | Labels | None = None,
    *,
    model: str = "default",
) -> Model:
    """Add newly labeled documents (or rows) to a trained model (scikit-learn's partial_fit)."""
    database = connect(db)
    return Model.of(database, counting.appending(database, data, labels, model=model).apply())


def retune(db: Any, model: str = "default", **hyperparameters: Any) -> Model:
    """Change the hyperparameters of a trained model that derive its parameters from its
    stored counts (those whose ``stage`` is "parameters", :mod:`sqlnb.kinds.params`; its
    training data may be gone)."""
    database = connect(db)
    return Model.of(database, training.retune(database, model, hyperparameters).apply())


def _keywords(fn: Any) -> None:
    """Give ``fn`` (whose ``**hyperparameters`` are every kind's) a signature that names
    them, from their declarations (:mod:`sqlnb.kinds.params`): help() and editors show them."""
    import inspect

    from sqlnb.kinds import KINDS
    from sqlnb.kinds.params import every

    signature = inspect.signature(fn)
    fixed = [p for p in signature.parameters.values() if p.kind != p.VAR_KEYWORD]
    named = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None)
        for name in every(KINDS.values())
        if name not in signature.parameters
    ]
    fn.__signature__ = signature.replace(parameters=[*fixed, *named])


for _fn in (train, retune):
    _keywords(_fn)


calibrated = calibration.described  # a model's calibration in one line
