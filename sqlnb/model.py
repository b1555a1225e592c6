"""The Python API, in scikit-learn's vocabulary.

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

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import duckdb
from sqlglot import exp

from sqlnb import __version__, templates
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Labels, Tokens, type_family
from sqlnb.kinds import KINDS, Kind, kind

SHARED_TABLES = ("sqlnb_classes", "sqlnb_prior")
CATALOG_CREATES = (
    "catalog/create_models.sql",
    "catalog/create_classes.sql",
    "catalog/create_prior.sql",
)

# The names of the intermediate relations of prediction and evaluation queries.
INPUT, DOCUMENTS, TRUTH, JLL, POSTERIOR, OUTCOMES = (
    "sqlnb_input",
    "sqlnb_documents",
    "sqlnb_truth",
    "sqlnb_jll",
    "sqlnb_posterior",
    "sqlnb_outcomes",
)


def connect(target: Any, *, create: bool = False, read_only: bool = False) -> Database:
    """A :class:`Database` from a path, URL or open connection."""
    return Database.connect(target, create=create, read_only=read_only)


def _ref(name: str) -> exp.Table:
    return exp.to_table(name)


def _tokens(source: str | Tokens) -> Tokens:
    return source if isinstance(source, Tokens) else Tokens(source)


def _labels(source: str | Labels) -> Labels:
    return source if isinstance(source, Labels) else Labels(source)


# --- hyperparameters -------------------------------------------------------------------------


@dataclass(frozen=True)
class Params:
    """Smoothing and prior settings shared by the kinds."""

    alpha: float = 1.0
    fit_prior: bool = True
    class_prior: dict[str, float] | None = None
    prior_alpha: float = 0.0

    def check(self, the_kind: Kind) -> None:
        for name in ("alpha", "prior_alpha"):
            value = getattr(self, name)
            if not value >= 0 or value == float("inf"):
                raise SqlnbError(f"{name} must be a finite number >= 0, not {value}")
        if not the_kind.uses_prior and (
            self.class_prior is not None or not self.fit_prior or self.prior_alpha
        ):
            raise SqlnbError(f"kind {the_kind.name!r} does not use a class prior")

    def check_classes(self, labels: Sequence[str]) -> None:
        """A given class prior names every class, only those, and sums to 1."""
        if self.class_prior is None:
            return
        unknown = sorted(set(self.class_prior) - set(labels))
        if unknown:
            raise SqlnbError(f"class prior names unknown class {unknown[0]!r}")
        missing = [c for c in labels if c not in self.class_prior]
        if missing:
            raise SqlnbError(f"class prior does not name class {missing[0]!r}")
        for label, p in self.class_prior.items():
            if not 0 <= p <= 1:
                raise SqlnbError(f"class prior of {label!r} is {p}, not a probability")
        total = sum(self.class_prior.values())
        if abs(total - 1) > 1e-6:
            raise SqlnbError(f"class prior sums to {total:.9g}, not 1")

    def prior_bindings(self) -> tuple[exp.Expr, exp.Expr]:
        """The (weight, total) of sql/train/prior.sql."""
        label = exp.column("label", table="c")
        weight: exp.Expr
        if self.class_prior is not None:
            weight = exp.Case(
                ifs=[
                    exp.If(this=label.eq(exp.convert(k)), true=templates.number(v))
                    for k, v in self.class_prior.items()
                ],
                default=templates.number(0.0),
            )
            return weight, templates.number(1.0)
        if self.fit_prior:
            weight = exp.Add(
                this=exp.column("n_docs", table="c"),
                expression=templates.number(self.prior_alpha),
            )
        else:
            weight = templates.number(1.0)
        return weight, exp.Window(this=exp.Sum(this=weight.copy()))

    def as_dict(self) -> dict[str, Any]:
        return {
            "alpha": self.alpha,
            "fit_prior": self.fit_prior,
            "class_prior": self.class_prior,
            "prior_alpha": self.prior_alpha,
        }


def parse_class_prior(text: str) -> dict[str, float]:
    """``'spam=0.3,ham=0.7'`` as a dict.

    >>> parse_class_prior("spam=0.3, ham=0.7")
    {'spam': 0.3, 'ham': 0.7}
    """
    prior: dict[str, float] = {}
    for part in text.split(","):
        label, sep, value = part.strip().rpartition("=")
        if not sep or not label:
            raise SqlnbError(f"class prior {part.strip()!r} is not of the form label=probability")
        try:
            prior[label] = float(value)
        except ValueError:
            raise SqlnbError(f"class prior of {label!r} is {value!r}, not a number") from None
    return prior


# --- training --------------------------------------------------------------------------------


def _check_tokens(db: Database, query: exp.Select, name: str) -> None:
    row = db.fetch_dicts(templates.render("check/tokens.sql", tokens=query))[0]
    if row["null_doc"]:
        raise SqlnbError(
            f"tokens table {name!r} has {row['null_doc']} rows with a NULL document id"
        )
    if row["null_word"]:
        raise SqlnbError(f"tokens table {name!r} has {row['null_word']} rows with a NULL word")
    if row["not_finite"]:
        raise SqlnbError(
            f"tokens table {name!r} has {row['not_finite']} counts that are NULL, NaN or infinite"
        )
    if row["negative"]:
        raise SqlnbError(f"tokens table {name!r} has {row['negative']} negative counts")


def _check_labels(db: Database, query: exp.Select, name: str) -> list[str]:
    row = db.fetch_dicts(templates.render("check/labels.sql", labels=query))[0]
    if not row["n_rows"]:
        raise SqlnbError(f"labels table {name!r} is empty: nothing to train on")
    if row["null_doc"]:
        raise SqlnbError(
            f"labels table {name!r} has {row['null_doc']} rows with a NULL document id"
        )
    if row["null_label"]:
        raise SqlnbError(f"labels table {name!r} has {row['null_label']} rows with a NULL label")
    if row["n_rows"] != row["n_docs"]:
        doc = db.fetch(templates.render("check/conflict.sql", labels=query))[0][0]
        raise SqlnbError(f"labels table {name!r} gives document {doc} two different labels")
    return [r[0] for r in db.fetch(templates.render("check/label_values.sql", labels=query))]


def _catalog_row(db: Database, name: str) -> dict[str, Any] | None:
    if not db.exists(_ref("sqlnb_models")):
        return None
    rows = [r for r in db.fetch_dicts(templates.parsed("catalog/models.sql")) if r["model"] == name]
    return rows[0] if rows else None


def training_statements(
    db: Database,
    tokens: str | Tokens = "tokens",
    labels: str | Labels = "labels",
    *,
    model: str = "default",
    kind_name: str = "multinomial",
    params: Params | None = None,
) -> list[exp.Expr]:
    """The statements that train ``model``, after checking the inputs (reads, never writes)."""
    params = params or Params()
    the_kind = kind(kind_name)
    params.check(the_kind)
    tokens, labels = _tokens(tokens), _labels(labels)
    tokens_query = tokens.query(db)
    labels_query = labels.query(db)
    _check_tokens(db, tokens_query, tokens.table)
    params.check_classes(_check_labels(db, labels_query, labels.table))
    label_type = labels.label_type(db)

    previous = _catalog_row(db, model)
    stale = set(SHARED_TABLES) | set(the_kind.tables)
    if previous is not None and previous["kind"] in KINDS:
        stale |= set(KINDS[previous["kind"]].tables)

    labeled = templates.render("input/labeled.sql", labels=labels_query)
    weight, total = params.prior_bindings()
    statements: list[exp.Expr] = [
        templates.render(name) for name in (*CATALOG_CREATES, *the_kind.creates)
    ]
    statements += [
        templates.render("catalog/delete.sql", table=templates.table(t), model=model)
        for t in ("sqlnb_models", *sorted(stale))
    ]
    statements.append(templates.render("train/classes.sql", model=model, labeled=labeled))
    statements += the_kind.count(model, tokens_query, labeled)
    statements.append(templates.render("train/prior.sql", model=model, weight=weight, total=total))
    statements += the_kind.derive(model, params.as_dict())
    statements.append(
        templates.render(
            "catalog/record.sql",
            model=model,
            kind=the_kind.name,
            params=json.dumps(params.as_dict()),
            label_type=label_type,
            n_features=the_kind.n_features(model),
            version=__version__,
        )
    )
    return statements


def train(
    db: Any,
    tokens: str | Tokens = "tokens",
    labels: str | Labels = "labels",
    *,
    model: str = "default",
    kind: str = "multinomial",
    alpha: float = 1.0,
    fit_prior: bool = True,
    class_prior: dict[str, float] | None = None,
    prior_alpha: float = 0.0,
) -> Model:
    """Train (or retrain, atomically) a model in the database and return it."""
    database = connect(db, create=True)
    params = Params(alpha, fit_prior, class_prior, prior_alpha)
    statements = training_statements(
        database, tokens, labels, model=model, kind_name=kind, params=params
    )
    with database.transaction():
        for statement in statements:
            database.execute(statement)
    return load(database, model)


# --- the catalog -----------------------------------------------------------------------------


def models(db: Any) -> list[dict[str, Any]]:
    """Every model in the database, with its hyperparameters and classes."""
    database = connect(db)
    if not database.exists(_ref("sqlnb_models")):
        return []
    classes: dict[str, list[str]] = {}
    for row in database.fetch_dicts(templates.parsed("catalog/classes.sql")):
        classes.setdefault(row["model"], []).append(row["label"])
    rows = database.fetch_dicts(templates.parsed("catalog/models.sql"))
    for row in rows:
        row["params"] = json.loads(row["params"])
        row["classes"] = classes.get(row["model"], [])
    return rows


def load(db: Any, name: str = "default") -> Model:
    """The model called ``name``; an unknown name is a clear error."""
    database = connect(db)
    row = _catalog_row(database, name)
    if row is None:
        raise SqlnbError(f"no model named {name!r} in this database")
    return Model(database, name, row["kind"], json.loads(row["params"]), row["label_type"], row)


def drop(db: Any, name: str) -> None:
    """Remove a model and all its rows."""
    model = load(db, name)
    with model.db.transaction():
        for t in ("sqlnb_models", *SHARED_TABLES, *model.kind.tables):
            model.db.execute(
                templates.render("catalog/delete.sql", table=templates.table(t), model=name)
            )


# --- a trained model -------------------------------------------------------------------------


@dataclass
class Model:
    """A trained model in a database: predictions are SQL run there."""

    db: Database
    name: str
    kind_name: str
    params: dict[str, Any]
    label_type: str
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> Kind:
        return kind(self.kind_name)

    def _label(self) -> exp.Expr:
        """The stored label text, cast back to the type of the training labels."""
        text = exp.column("label", table="c")
        if type_family(self.label_type) == "text":
            return text
        try:
            target = exp.DataType.build(self.label_type, dialect="duckdb")
        except Exception:  # a type sqlglot cannot spell: labels stay text
            return text
        return exp.cast(text, target)

    def _with_posterior(
        self, final: exp.Select, tokens: exp.Select, documents: exp.Expr
    ) -> exp.Select:
        """``final`` preceded by the shared pipeline: input, documents, jll, posterior."""
        jll = self.kind.jll(self.name, _ref(DOCUMENTS), _ref(INPUT))
        posterior = templates.render("predict/posterior.sql", jll=_ref(JLL))
        return (
            final.with_(INPUT, as_=tokens)
            .with_(DOCUMENTS, as_=documents)
            .with_(JLL, as_=jll)
            .with_(POSTERIOR, as_=posterior)
        )

    def prediction_query(self, tokens: str | Tokens, *, proba: bool = False) -> exp.Select:
        """The query of predict's output: (doc_id, label, proba), or with ``proba`` one row per
        (document, class): (doc_id, label, log_proba, proba)."""
        tokens_query = _tokens(tokens).query(self.db)
        documents = templates.render("input/documents.sql", source=_ref(INPUT))
        final = templates.render(
            "predict/proba.sql" if proba else "predict/labels.sql",
            posterior=_ref(POSTERIOR),
            label=self._label(),
            model=self.name,
        )
        assert isinstance(final, exp.Select)
        return self._with_posterior(final, tokens_query, documents)

    def predict(self, tokens: str | Tokens) -> duckdb.DuckDBPyRelation:
        """A lazy relation (doc_id, label, proba): the predicted label of every document."""
        return self.db.relation(self.prediction_query(tokens))

    def predict_proba(self, tokens: str | Tokens) -> duckdb.DuckDBPyRelation:
        """A lazy relation (doc_id, label, proba): every class's posterior of every document."""
        query = self.prediction_query(tokens, proba=True)
        return self.db.relation(query).select("doc_id, label, proba")

    def predict_log_proba(self, tokens: str | Tokens) -> duckdb.DuckDBPyRelation:
        """A lazy relation (doc_id, label, log_proba); NULL log_proba means -infinity."""
        query = self.prediction_query(tokens, proba=True)
        return self.db.relation(query).select("doc_id, label, log_proba")

    def prediction_statements(
        self, tokens: str | Tokens, output: str, *, proba: bool = False, replace: bool = False
    ) -> list[exp.Expr]:
        """The statements that write predictions to table ``output``."""
        target = templates.table(output)
        if not replace and self.db.exists(target):
            raise SqlnbError(f"output table {output!r} already exists (use --replace)")
        create = exp.Create(
            this=target, kind="TABLE", expression=self.prediction_query(tokens, proba=proba)
        )
        drop_old = templates.render("catalog/drop_table.sql", table=target)
        return [drop_old, create] if replace else [create]

    def predict_to(
        self, tokens: str | Tokens, output: str, *, proba: bool = False, replace: bool = False
    ) -> int:
        """Write predictions to table ``output``; returns its number of rows."""
        statements = self.prediction_statements(tokens, output, proba=proba, replace=replace)
        with self.db.transaction():
            for statement in statements:
                self.db.execute(statement)
        count = exp.select(exp.func("COUNT", exp.Star())).from_(templates.table(output))
        return int(self.db.fetch(count)[0][0])

    # --- evaluation ----------------------------------------------------------------------

    def evaluation_statements(
        self, tokens: str | Tokens, labels: str | Labels
    ) -> tuple[exp.Expr, list[exp.Expr], exp.Expr]:
        """(create the outcomes temp table, [confusion, per_class, summary], drop it)."""
        labels = _labels(labels)
        truth = labels.query(self.db)
        given = labels.label_type(self.db)
        if type_family(given) != type_family(self.label_type):
            raise SqlnbError(
                f"labels column {labels.label!r} of {labels.table!r} is {given}, but model "
                f"{self.name!r} was trained on {self.label_type} labels"
            )
        documents = templates.render("input/documents.sql", source=_ref(TRUTH))
        final = templates.render(
            "evaluate/outcomes.sql", truth=_ref(TRUTH), posterior=_ref(POSTERIOR), model=self.name
        )
        assert isinstance(final, exp.Select)
        outcomes = self._with_posterior(final, _tokens(tokens).query(self.db), documents)
        outcomes = outcomes.with_(TRUTH, as_=truth)
        # The truth CTE must come before the documents that read it.
        ctes = outcomes.args["with_"].expressions
        ctes.insert(1, ctes.pop())
        create = exp.Create(
            this=_ref(OUTCOMES),
            kind="TABLE",
            expression=outcomes,
            properties=exp.Properties(expressions=[exp.TemporaryProperty()]),
        )
        per_class = templates.render("evaluate/per_class.sql", outcomes=_ref(OUTCOMES))
        queries = [
            templates.render("evaluate/confusion.sql", outcomes=_ref(OUTCOMES)),
            per_class,
            templates.render("evaluate/summary.sql", outcomes=_ref(OUTCOMES), per_class=per_class),
        ]
        return create, queries, templates.render("catalog/drop_table.sql", table=_ref(OUTCOMES))

    def evaluate(self, tokens: str | Tokens, labels: str | Labels) -> dict[str, Any]:
        """Accuracy, macro-F1, log-loss, per-class precision/recall/F1/support, confusion."""
        create, (confusion, per_class, summary), drop_it = self.evaluation_statements(
            tokens, labels
        )
        self.db.execute(drop_it)
        self.db.execute(create)
        try:
            head = self.db.fetch_dicts(summary)[0]
            classes = self.db.fetch_dicts(per_class)
            matrix = self.db.fetch_dicts(confusion)
        finally:
            self.db.execute(drop_it)
        return {
            "n_docs": int(head["n_docs"]),
            "accuracy": head["accuracy"],
            "macro_f1": head["macro_f1"],
            "log_loss": head["log_loss"],
            "per_class": {
                r["label"]: {k: r[k] for k in ("precision", "recall", "f1", "support")}
                for r in classes
            },
            "confusion": [
                {"true": r["true_label"], "predicted": r["predicted"], "count": int(r["count"])}
                for r in matrix
            ],
        }

    # --- inspection ----------------------------------------------------------------------

    def classes(self) -> list[dict[str, Any]]:
        rows = self.db.fetch_dicts(templates.parsed("catalog/classes.sql"))
        return [r for r in rows if r["model"] == self.name]

    def top_words(self, top: int = 10) -> list[dict[str, Any]]:
        """The most indicative words of each class (text kinds)."""
        return self.db.fetch_dicts(templates.render("show/top_words.sql", model=self.name, top=top))
