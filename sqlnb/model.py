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

from sqlglot import exp

from sqlnb import __version__, macros, templates
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.inputs import Labels, Table, Tokens, source_node, type_family
from sqlnb.kinds import KINDS, Kind, kind
from sqlnb.tokenizer import Docs, Tokenizer

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


Source = Tokens | Table | Docs


def _source(source: str | Source) -> Source:
    return Tokens(source) if isinstance(source, str) else source


def _labels(source: str | Labels) -> Labels:
    return source if isinstance(source, Labels) else Labels(source)


# --- hyperparameters -------------------------------------------------------------------------


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


def _check_class_prior(prior: dict[str, float] | None, labels: Sequence[str]) -> None:
    """A given class prior names every class, only those, and sums to 1."""
    if prior is None:
        return
    unknown = sorted(set(prior) - set(labels))
    if unknown:
        raise SqlnbError(f"class prior names unknown class {unknown[0]!r}")
    missing = [c for c in labels if c not in prior]
    if missing:
        raise SqlnbError(f"class prior does not name class {missing[0]!r}")
    for label, p in prior.items():
        if not 0 <= p <= 1:
            raise SqlnbError(f"class prior of {label!r} is {p}, not a probability")
    total = sum(prior.values())
    if abs(total - 1) > 1e-6:
        raise SqlnbError(f"class prior sums to {total:.9g}, not 1")


def _prior_bindings(params: dict[str, Any]) -> tuple[exp.Expr, exp.Expr]:
    """The (weight, total) of sql/train/prior.sql: given priors are used as they are; learned
    ones are n_docs + prior_alpha, normalised; uniform ones 1, normalised."""
    label = exp.column("label", table="c")
    weight: exp.Expr
    if params["class_prior"] is not None:
        weight = exp.Case(
            ifs=[
                exp.If(this=label.eq(exp.convert(k)), true=templates.number(v))
                for k, v in params["class_prior"].items()
            ],
            default=templates.number(0.0),
        )
        return weight, templates.number(1.0)
    if params["fit_prior"]:
        weight = exp.Add(
            this=exp.column("n_docs", table="c"),
            expression=templates.number(params["prior_alpha"]),
        )
    else:
        weight = templates.number(1.0)
    return weight, exp.Window(this=exp.Sum(this=weight.copy()))


@dataclass(frozen=True)
class Pruning:
    """Vocabulary pruning at training time, as scikit-learn's CountVectorizer: an integer
    ``min_df``/``max_df`` is a number of documents, a float a proportion of the training
    documents; ``max_features`` keeps the most frequent words (ties to the first word)."""

    min_df: int | float = 1
    max_df: int | float = 1.0
    max_features: int | None = None

    def __post_init__(self) -> None:
        for name in ("min_df", "max_df"):
            value = getattr(self, name)
            if value < 0 or (isinstance(value, float) and value > 1):
                raise SqlnbError(f"{name} must be a count >= 0 or a proportion in [0, 1]")
        if self.max_features is not None and self.max_features < 1:
            raise SqlnbError("max_features must be at least 1")

    def as_dict(self) -> dict[str, Any]:
        return {"min_df": self.min_df, "max_df": self.max_df, "max_features": self.max_features}

    def apply(self, tokens: exp.Select, labels: exp.Select) -> exp.Select:
        """The tokens of the labeled documents, restricted to the kept vocabulary."""
        labeled = exp.select("doc_id").from_(labels.subquery("l"))
        tokens = (
            exp.select("*")
            .from_(tokens.subquery("t"))
            .where(exp.column("doc_id").isin(query=labeled))
        )
        n_docs = exp.select(exp.func("COUNT", exp.Star())).from_(labels.subquery("n"))

        def bound(value: int | float) -> exp.Expr:
            if isinstance(value, float):
                return exp.Mul(this=templates.number(value), expression=n_docs.subquery())
            return exp.convert(value)

        tree = templates.render(
            "tokenize/prune.sql",
            tokens=exp.to_table("sqlnb_unpruned"),  # read twice: one CTE, not two copies
            min_df=bound(self.min_df),
            max_df=bound(self.max_df),
            max_features=self.max_features or 2**62,
        )
        assert isinstance(tree, exp.Select)
        tree = tree.with_("sqlnb_unpruned", as_=tokens)
        return tree


def parse_df(text: str) -> int | float:
    """``'2'`` is a number of documents, ``'0.5'`` a proportion."""
    try:
        return float(text) if "." in text or "e" in text.lower() else int(text)
    except ValueError:
        raise SqlnbError(f"{text!r} is not a document count or proportion") from None


# --- training --------------------------------------------------------------------------------


def _check_tokens(db: Database, query: exp.Select, source: Tokens) -> None:
    count = exp.column("count", table="t")
    finite = (
        count.is_(exp.null()).not_()
        if source.integer_counts(db)
        else exp.EQ(
            this=exp.Mul(this=count.copy(), expression=exp.convert(0)), expression=exp.convert(0)
        )
    )
    row = db.fetch_dicts(templates.render("check/tokens.sql", tokens=query, finite=finite))[0]
    name = source.table
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


def _check_table(db: Database, source: Table) -> None:
    row = db.fetch_dicts(
        templates.render(
            "check/table.sql", id=templates.column(source.id), source=source_node(source.table)
        )
    )[0]
    if row["null_id"]:
        raise SqlnbError(f"table {source.table!r} has {row['null_id']} rows with a NULL id")
    if row["n_rows"] != row["n_ids"]:
        raise SqlnbError(f"table {source.table!r}: id column {source.id!r} is not unique")


def _check_labels(
    db: Database, query: exp.Select, name: str, purpose: str = "train on"
) -> list[str]:
    row = db.fetch_dicts(templates.render("check/labels.sql", labels=query))[0]
    every_row = query.copy()
    every_row.set("distinct", None)  # NULLs are counted per row, not per distinct pair
    nulls = db.fetch_dicts(templates.render("check/labels.sql", labels=every_row))[0]
    row["null_doc"], row["null_label"] = nulls["null_doc"], nulls["null_label"]
    if not row["n_rows"]:
        raise SqlnbError(f"labels table {name!r} is empty: nothing to {purpose}")
    if row["null_doc"]:
        raise SqlnbError(
            f"labels table {name!r} has {row['null_doc']} rows with a NULL document id"
        )
    if row["null_label"]:
        raise SqlnbError(f"labels table {name!r} has {row['null_label']} rows with a NULL label")
    if row["bad_weight"]:
        raise SqlnbError(
            f"labels table {name!r} has {row['bad_weight']} sample weights that are "
            "NULL, NaN, infinite or negative"
        )
    if row["n_rows"] != row["n_docs"]:
        doc = db.fetch(templates.render("check/conflict.sql", labels=query))[0][0]
        raise SqlnbError(f"labels table {name!r} gives document {doc} two different labels")
    return [r[0] for r in db.fetch(templates.render("check/label_values.sql", labels=query))]


def _catalog_row(db: Database, name: str) -> dict[str, Any] | None:
    if not db.exists(_ref("sqlnb_models")):
        return None
    rows = [r for r in db.fetch_dicts(templates.parsed("catalog/models.sql")) if r["model"] == name]
    return rows[0] if rows else None


def _kind_for(kind_name: str | None, source: Source) -> Kind:
    if kind_name is None:
        kind_name = "mixed" if isinstance(source, Table) else "multinomial"
    the_kind = kind(kind_name)
    wanted: tuple[type, ...] = (Table,) if the_kind.source == "table" else (Tokens, Docs)
    if not isinstance(source, wanted):
        what = "a wide table (--table)" if Table in wanted else "a tokens table (--tokens)"
        raise SqlnbError(f"kind {the_kind.name!r} trains from {what}")
    return the_kind


@dataclass
class _Batch:
    """Checked inputs of a training or an append: the kind's input queries and the labels."""

    inputs: dict[str, exp.Select]
    labels_query: exp.Select
    label_values: list[str]
    label_type: str


def _read(
    db: Database,
    source: Source,
    labels: str | Labels | None,
    the_kind: Kind,
    params: dict[str, Any],
    pruning: Pruning | None = None,
) -> _Batch:
    """Check the inputs (reads, never writes) and return them as queries."""
    if isinstance(source, Table):
        _check_table(db, source)
    if labels is None and isinstance(source, (Table, Docs)):
        labels = source.labels()
    labels = _labels("labels" if labels is None else labels)
    labels_query = labels.query(db)
    inputs = the_kind.inputs(db, source, params)
    if pruning is not None:
        inputs = {k: pruning.apply(q, labels_query) for k, q in inputs.items()}
    if isinstance(source, Tokens):
        _check_tokens(db, next(iter(inputs.values())), source)
    values = _check_labels(db, labels_query, labels.table)
    return _Batch(inputs, labels_query, values, labels.label_type(db))


def _deletes(model: str, tables: Sequence[str]) -> list[exp.Expr]:
    return [
        templates.render("catalog/delete.sql", table=templates.table(t), model=model)
        for t in tables
    ]


def _parameters(
    model: str, the_kind: Kind, params: dict[str, Any], label_type: str, n_classes: int
) -> list[exp.Expr]:
    """The derived tables (prior, the kind's parameters) and the catalog row, from the counts
    of ``n_classes`` classes."""
    weight, total = _prior_bindings(params)
    return [
        templates.render("train/prior.sql", model=model, weight=weight, total=total),
        *the_kind.derive(model, params, n_classes),
        templates.render(
            "catalog/record.sql",
            model=model,
            kind=the_kind.name,
            params=json.dumps(params),
            label_type=label_type,
            n_features=the_kind.n_features(model, params),
            version=__version__,
        ),
    ]


def training_statements(
    db: Database,
    data: str | Source = "tokens",
    labels: str | Labels | None = None,
    *,
    model: str = "default",
    kind_name: str | None = None,
    hyperparameters: dict[str, Any] | None = None,
    tokenizer: Tokenizer | None = None,
    pruning: Pruning | None = None,
) -> tuple[list[exp.Expr], Kind, dict[str, Any]]:
    """The statements that train ``model`` (after checking the inputs: reads, never writes),
    the kind, and the resolved hyperparameters. Training from a :class:`Docs` table tokenizes
    with ``tokenizer`` (stored with the model) and prunes the vocabulary with ``pruning``."""
    source = _source(data)
    the_kind = _kind_for(kind_name, source)
    params = the_kind.resolve(hyperparameters or {})
    if (tokenizer is not None or pruning is not None) and not isinstance(source, Docs):
        raise SqlnbError("tokenizer and pruning options apply to training from text (--docs)")
    if isinstance(source, Table):
        params["features"] = the_kind.features(db, source)  # type: ignore[attr-defined]
    if isinstance(source, Docs):
        params["tokenizer"] = (tokenizer or Tokenizer()).as_dict()
        if pruning is not None:
            params["pruning"] = pruning.as_dict()
    batch = _read(db, source, labels, the_kind, params, pruning)
    _check_class_prior(params["class_prior"], batch.label_values)

    previous = _catalog_row(db, model)
    stale = set(SHARED_TABLES) | set(the_kind.tables)
    if previous is not None and previous["kind"] in KINDS:
        stale |= set(KINDS[previous["kind"]].tables)
    labeled = templates.render("input/labeled.sql", labels=batch.labels_query)
    statements: list[exp.Expr] = [
        templates.render(name) for name in (*CATALOG_CREATES, *the_kind.creates)
    ]
    statements += _deletes(model, ("sqlnb_models", *sorted(stale)))
    statements.append(templates.render("train/classes.sql", model=model, labeled=labeled))
    statements += the_kind.count(model, batch.inputs, labeled, params)
    statements += _parameters(model, the_kind, params, batch.label_type, len(batch.label_values))
    return statements, the_kind, params


MERGES = {
    "sqlnb_word_counts": "append/word_counts.sql",
    "sqlnb_category_counts": "append/category_counts.sql",
    "sqlnb_gaussian_stats": "append/gaussian_stats.sql",
}
COLUMNS = {
    "sqlnb_classes": ("class_id", "label", "n_docs"),
    "sqlnb_word_counts": ("class_id", "word", "count"),
    "sqlnb_category_counts": ("class_id", "feature", "value", "count"),
    "sqlnb_gaussian_stats": ("class_id", "feature", "n", "mean", "m2"),
}


def append_statements(
    db: Database,
    data: str | Source = "tokens",
    labels: str | Labels | None = None,
    *,
    model: str = "default",
) -> tuple[list[exp.Expr], Kind, dict[str, Any]]:
    """The statements that add a batch of labeled documents (or rows) to ``model`` by adding
    their counts, as scikit-learn's ``partial_fit``: the result equals training on the union.
    The kind, hyperparameters and tokenizer are the model's; new classes and words may appear."""
    current = load(db, model)
    the_kind, params = current.kind, dict(current.params)
    source = _source(data)
    _kind_for(the_kind.name, source)
    if params.get("pruning"):
        raise SqlnbError(
            f"model {model!r} was trained with vocabulary pruning, which depends "
            "on all documents at once: it cannot be appended to; train again"
        )
    batch = _read(db, source, labels, the_kind, params)
    if type_family(batch.label_type) != type_family(current.label_type):
        raise SqlnbError(
            f"the new labels are {batch.label_type}, but model {model!r} was "
            f"trained on {current.label_type} labels"
        )
    if params["class_prior"] is not None:
        new = sorted(set(batch.label_values) - set(params["class_prior"]))
        if new:
            raise SqlnbError(
                f"class {new[0]!r} is new, but model {model!r} has given class "
                "priors that do not name it: retune with --class-prior first"
            )
    staging, merged = model + "\x1fbatch", model + "\x1fmerged"
    counts = ("sqlnb_classes", *the_kind.counts)
    derived = ("sqlnb_prior", *(t for t in the_kind.tables if t not in the_kind.counts))
    labeled = templates.render("input/labeled.sql", labels=batch.labels_query)
    sort_key: exp.Expr = exp.column("label", table="g")
    if type_family(current.label_type) != "text":
        sort_key = exp.cast(sort_key, exp.DataType.build(current.label_type, dialect="duckdb"))
    statements: list[exp.Expr] = [
        *_deletes(staging, counts),
        *_deletes(merged, counts),
        templates.render("train/classes.sql", model=staging, labeled=labeled),
        *the_kind.count(staging, batch.inputs, labeled, params),
        templates.render(
            "append/classes.sql", model=model, batch=staging, merged=merged, sort_key=sort_key
        ),
        *(
            templates.render(MERGES[t], model=model, batch=staging, merged=merged)
            for t in the_kind.counts
        ),
        *_deletes(model, ("sqlnb_models", *counts, *derived)),
        *_deletes(staging, counts),
    ]
    for table in counts:  # the merged counts become the model's
        rows = (
            exp.select(exp.convert(model).as_("model"), *COLUMNS[table])
            .from_(templates.table(table))
            .where(exp.column("model").eq(exp.convert(merged)))
        )
        statements.append(
            exp.insert(rows, templates.table(table), columns=["model", *COLUMNS[table]])
        )
    statements += _deletes(merged, counts)
    n_classes = len({c["label"] for c in current.classes()} | set(batch.label_values))
    statements += _parameters(model, the_kind, params, current.label_type, n_classes)
    return statements, the_kind, params


def retune_statements(
    db: Database, model: str, hyperparameters: dict[str, Any]
) -> tuple[list[exp.Expr], Kind, dict[str, Any]]:
    """The statements that change a trained model's smoothing or priors without reading its
    training data: the derived tables are recomputed from the stored counts."""
    current = load(db, model)
    the_kind = current.kind
    given = {k: v for k, v in current.params.items() if k in the_kind.hyperparameters}
    given.update({k: v for k, v in hyperparameters.items() if v is not None})
    if any(hyperparameters.get(k) is not None for k in ("fit_prior", "prior_alpha")):
        given["class_prior"] = hyperparameters.get("class_prior")  # learned or uniform again
    params = {**current.params, **the_kind.resolve(given)}
    _check_class_prior(params["class_prior"], [c["label"] for c in current.classes()])
    derived = ("sqlnb_prior", *(t for t in the_kind.tables if t not in the_kind.counts))
    statements = _deletes(model, ("sqlnb_models", *derived))
    statements += _parameters(
        model, the_kind, params, current.label_type, int(current.info["n_classes"])
    )
    return statements, the_kind, params


def train(
    db: Any,
    data: str | Source = "tokens",
    labels: str | Labels | None = None,
    *,
    model: str = "default",
    kind: str | None = None,
    alpha: float | None = None,
    beta: float | None = None,
    norm: bool | None = None,
    fit_prior: bool | None = None,
    class_prior: dict[str, float] | None = None,
    prior_alpha: float | None = None,
    var_smoothing: float | None = None,
    sample_variance: bool | None = None,
    tokenizer: Tokenizer | None = None,
    pruning: Pruning | None = None,
) -> Model:
    """Train (or retrain, atomically) a model in the database and return it.

    ``data`` is a tokens table (name or :class:`Tokens`; ``labels`` then defaults to
    ``"labels"``) or a :class:`Table` (whose label column gives the labels). Hyperparameters
    left as None take the kind's defaults; ones the kind does not define are refused.
    """
    database = connect(db, create=True)
    hyperparameters = {
        "alpha": alpha,
        "beta": beta,
        "norm": norm,
        "fit_prior": fit_prior,
        "class_prior": class_prior,
        "prior_alpha": prior_alpha,
        "var_smoothing": var_smoothing,
        "sample_variance": sample_variance,
    }
    statements, the_kind, params = training_statements(
        database,
        data,
        labels,
        model=model,
        kind_name=kind,
        hyperparameters=hyperparameters,
        tokenizer=tokenizer,
        pruning=pruning,
    )
    apply_training(database, model, statements, the_kind, params)
    return load(database, model)


def append(
    db: Any,
    data: str | Source = "tokens",
    labels: str | Labels | None = None,
    *,
    model: str = "default",
) -> Model:
    """Add newly labeled documents (or rows) to a trained model (scikit-learn's partial_fit)."""
    database = connect(db)
    statements, the_kind, params = append_statements(database, data, labels, model=model)
    apply_training(database, model, statements, the_kind, params)
    return load(database, model)


def retune(db: Any, model: str = "default", **hyperparameters: Any) -> Model:
    """Change alpha, beta, the prior or the variance smoothing of a trained model, from its
    stored counts (its training data may be gone)."""
    database = connect(db)
    statements, the_kind, params = retune_statements(database, model, hyperparameters)
    apply_training(database, model, statements, the_kind, params)
    return load(database, model)


class _Rollback(Exception):
    """Leaves a transaction whose work was only a means (cross-validation)."""


def tune(
    db: Any,
    data: str | Source = "tokens",
    labels: str | Labels | None = None,
    *,
    alphas: Sequence[float] = (0.01, 0.1, 0.5, 1.0),
    folds: int = 5,
    kind: str | None = None,
    tokenizer: Tokenizer | None = None,
    **hyperparameters: Any,
) -> dict[str, Any]:
    """Choose alpha by k-fold cross-validation in SQL: folds by a hash of doc_id, each fold's
    vocabulary its training part's. Returns {"best_alpha", "results": [{"alpha", "accuracy",
    "log_loss"}]} with the means over folds; the best alpha has the highest mean accuracy
    (ties: the first given). The database is left as it was."""
    database = connect(db)
    if database.dialect.name != "duckdb":
        raise SqlnbError("tune needs DuckDB (its folds use DuckDB's hash())")
    if folds < 2:
        raise SqlnbError("--folds must be at least 2")
    if not alphas:
        raise SqlnbError("give at least one alpha")
    source = _source(data)
    if labels is None and isinstance(source, (Table, Docs)):
        labels = source.labels()
    labels = _labels("labels" if labels is None else labels)
    normalized = labels.query(database)
    scratch = "\x1ftune"
    scores: dict[float, list[tuple[float, float]]] = {a: [] for a in alphas}
    try:
        with database.transaction():
            for fold in range(folds):
                views = {}
                for test in (False, True):
                    name = f"sqlnb_tune_{'test' if test else 'train'}"
                    query = templates.render(
                        "tune/fold.sql",
                        labels=normalized.subquery("l"),
                        folds=folds,
                        fold=fold,
                        test=test,
                    )
                    database.execute(
                        templates.render("catalog/drop_view.sql", view=exp.to_table(name))
                    )
                    database.execute(
                        exp.Create(
                            this=exp.to_table(name),
                            kind="VIEW",
                            expression=query,
                            properties=exp.Properties(expressions=[exp.TemporaryProperty()]),
                        )
                    )
                    views[test] = Labels(name, "doc_id", "label", "weight")
                given = {**hyperparameters, "alpha": alphas[0]}
                statements, the_kind, params = training_statements(
                    database,
                    source,
                    views[False],
                    model=scratch,
                    kind_name=kind,
                    hyperparameters=given,
                    tokenizer=tokenizer,
                )
                apply_training(database, scratch, statements, the_kind, params)
                for alpha in alphas:
                    statements, the_kind, params = retune_statements(
                        database, scratch, {"alpha": alpha}
                    )
                    apply_training(database, scratch, statements, the_kind, params)
                    result = load(database, scratch).evaluate(source, views[True])
                    scores[alpha].append((result["accuracy"], result["log_loss"]))
            raise _Rollback
    except _Rollback:
        pass
    results = [
        {
            "alpha": a,
            "accuracy": sum(s[0] for s in scores[a]) / folds,
            "log_loss": sum(s[1] for s in scores[a]) / folds,
        }
        for a in alphas
    ]
    best = max(results, key=lambda r: r["accuracy"])  # max keeps the first of equals
    return {"best_alpha": best["alpha"], "results": results}


def apply_training(
    db: Database, model: str, statements: list[exp.Expr], the_kind: Kind, params: dict[str, Any]
) -> Model:
    """Run a training's statements in one transaction, check the result, refresh the macros;
    returns the model as committed."""
    with db.transaction():
        for statement in statements:
            db.execute(statement)
        the_kind.check(db, model, params)
        _refresh_macros(db)
        return load(db, model)


def _refresh_macros(db: Database) -> None:
    if db.dialect.name == "duckdb":
        for statement in macros.statements(db, [load(db, m["model"]) for m in models(db)]):
            db.execute(statement)


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
        for statement in _deletes(name, ("sqlnb_models", *SHARED_TABLES, *model.kind.tables)):
            model.db.execute(statement)
        _refresh_macros(model.db)


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
        self,
        final: exp.Select,
        data: str | Source,
        *,
        documents: exp.Select | None = None,
        unseen: str = "ignore",
        check: bool = True,
        guard: bool = True,
    ) -> exp.Select:
        """``final`` preceded by the shared pipeline as CTEs: the kind's inputs, the documents,
        the joint log-likelihood and the posterior. With ``guard`` (for a query sqlnb runs now,
        not a script or macro kept for later) the query also checks, in the snapshot it reads,
        that the model is still the one loaded (``sql/predict/current.sql``)."""
        source = _source(data)
        self._check_current()
        the_kind = self.kind
        inputs = the_kind.inputs(self.db, source, self.params)
        if check and isinstance(source, Tokens):
            _check_tokens(self.db, next(iter(inputs.values())), source)
        elif check and isinstance(source, Table):
            _check_table(self.db, source)
        if unseen == "error":
            found = the_kind.unseen(self.db, self.name, inputs)  # type: ignore[attr-defined]
            if found:
                raise SqlnbError(
                    f"feature {found[0]!r} has value {found[1]!r}, never seen in "
                    f"training by model {self.name!r}"
                )
        elif unseen != "ignore":
            raise SqlnbError(f"--unseen must be 'ignore' or 'error', not {unseen!r}")
        jll = templates.render(
            "predict/jll.sql",
            documents=_ref(DOCUMENTS),
            base=the_kind.base(self.name),
            parts=the_kind.parts(self.name, self.params, int(self.info["n_classes"])),
        )
        posterior = templates.render("predict/posterior.sql", jll=_ref(JLL))
        for name, query in inputs.items():
            final = final.with_(name, as_=query)
        documents = documents or the_kind.documents(self.db, source, inputs)
        if guard:
            fail = self.db.dialect.fail
            stale = exp.func(fail, exp.convert(self._stale)) if fail else exp.null()
            current = templates.render(
                "predict/current.sql",
                documents=documents,
                model=self.name,
                trained_at=str(self.info["trained_at"]),
                stale=stale,
            )
            assert isinstance(current, exp.Select)
            documents = current
        return (
            final.with_(DOCUMENTS, as_=documents)
            .with_(JLL, as_=jll)
            .with_(POSTERIOR, as_=posterior)
        )

    @property
    def _stale(self) -> str:
        return f"model {self.name!r} was retrained or dropped after it was loaded: load it again"

    def _check_current(self) -> None:
        """Refuse to go on if the model was retrained or dropped since it was loaded."""
        row = _catalog_row(self.db, self.name)
        if row is None or any(row[k] != self.info.get(k) for k in ("kind", "params", "trained_at")):
            raise SqlnbError(self._stale)

    def _run(self, query: exp.Select) -> Any:
        """A query's result (see :meth:`Database.relation`). Where the engine returns rows at
        once and cannot fail a query from inside (SQLite, PostgreSQL), the catalog is read again
        afterwards: unchanged since the load, the query read the loaded model."""
        result = self.db.relation(query)
        if self.db.dialect.fail is None:
            self._check_current()
        return result

    def prediction_query(
        self,
        data: str | Source,
        *,
        proba: bool = False,
        unseen: str = "ignore",
        documents: exp.Select | None = None,
        check: bool = True,
        guard: bool = True,
    ) -> exp.Select:
        """The query of predict's output: (doc_id, label, proba), or with ``proba`` one row per
        (document, class): (doc_id, label, log_proba, proba). The input is checked first
        (NULL ids, bad counts) unless ``check`` is off (for a query kept to run later)."""
        final = templates.render(
            "predict/proba.sql" if proba else "predict/labels.sql",
            posterior=_ref(POSTERIOR),
            label=self._label(),
            model=self.name,
        )
        assert isinstance(final, exp.Select)
        return self._with_posterior(
            final, data, unseen=unseen, documents=documents, check=check, guard=guard
        )

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
        self,
        data: str | Source,
        output: str,
        *,
        proba: bool = False,
        replace: bool = False,
        unseen: str = "ignore",
        guard: bool = True,
    ) -> list[exp.Expr]:
        """The statements that write predictions to table ``output`` (without ``guard``, for a
        script to run later, they do not check that the model is still the one loaded)."""
        query = self.prediction_query(data, proba=proba, unseen=unseen, guard=guard)
        return self.db.output_statements(output, query, replace=replace)

    def predict_to(
        self,
        data: str | Source,
        output: str,
        *,
        proba: bool = False,
        replace: bool = False,
        unseen: str = "ignore",
    ) -> int:
        """Write predictions to table ``output``; returns its number of rows."""
        query = self.prediction_query(data, proba=proba, unseen=unseen)
        return self.db.write_table(output, query, replace=replace, verify=self._check_current)

    def classify(
        self,
        table: str,
        id_column: str,
        data: str | Source,
        into: str,
        proba_into: str | None = None,
    ) -> int:
        """Write the predicted label (and its probability) into columns of the user's own
        table, added if missing, in one transaction; every other column and row stays as it
        was. Every row is classified (a row without tokens gets the prior). Returns the number
        of rows updated."""
        target = templates.table(table)
        columns = self.db.columns(target)
        if id_column not in columns:
            raise SqlnbError(f"table {table!r} has no id column {id_column!r}")
        for name in (into, proba_into):
            if name == id_column:
                raise SqlnbError(f"cannot write predictions into the id column {id_column!r}")
        rows = templates.render("input/ids.sql", id=templates.column(id_column), source=target)
        assert isinstance(rows, exp.Select)
        predictions = self.prediction_query(data, documents=rows)
        label_type = (
            exp.DataType.build(self.label_type, dialect="duckdb")
            if type_family(self.label_type) != "text"
            else exp.DataType.build("VARCHAR")
        )
        written = {into: ("label", label_type)}
        if proba_into is not None:
            written[proba_into] = ("proba", exp.DataType.build("DOUBLE"))
        statements: list[exp.Expr]
        if self.db.dialect.delete:  # UPDATE exists: add the missing columns, then update them
            statements = [
                exp.Alter(
                    this=target.copy(),
                    kind="TABLE",
                    actions=[exp.ColumnDef(this=exp.to_identifier(name, quoted=True), kind=kind)],
                )
                for name, (_, kind) in written.items()
                if name not in columns
            ]
            statements.append(
                exp.Update(
                    this=target.copy().as_("sqlnb_target"),
                    expressions=[
                        exp.column(name, quoted=True).eq(exp.column(value, table="p"))
                        for name, (value, _) in written.items()
                    ],
                    from_=exp.From(this=predictions.subquery("p")),
                    where=exp.Where(
                        this=exp.column(id_column, table="sqlnb_target", quoted=True).eq(
                            exp.column("doc_id", table="p")
                        )
                    ),
                )
            )
        else:  # no UPDATE (Spark's file tables): rewrite the table with the new columns
            staging = exp.to_table("sqlnb_classify_staging")
            select = [
                exp.cast(exp.column(written[c][0], table="p"), written[c][1]).as_(c, quoted=True)
                if c in written
                else exp.column(c, table="t", quoted=True)
                for c in columns
            ]
            select += [
                exp.cast(exp.column(value, table="p"), kind).as_(name, quoted=True)
                for name, (value, kind) in written.items()
                if name not in columns
            ]
            rewritten = (
                exp.select(*select)
                .from_(target.copy().as_("t"))
                .join(
                    predictions.subquery("p"),
                    join_type="LEFT",
                    on=exp.column(id_column, table="t", quoted=True).eq(
                        exp.column("doc_id", table="p")
                    ),
                )
            )
            statements = [
                templates.render("catalog/drop_table.sql", table=staging.copy()),
                exp.Create(this=staging.copy(), kind="TABLE", expression=rewritten),
                templates.render("catalog/drop_table.sql", table=target.copy()),
                exp.Alter(
                    this=staging.copy(), kind="TABLE", actions=[exp.AlterRename(this=target.copy())]
                ),
            ]
        with self.db.transaction():
            for statement in statements:
                self.db.execute(statement)
            self._check_current()
        count = exp.select(exp.func("COUNT", exp.Star())).from_(target.copy())
        return int(self.db.fetch(count)[0][0])

    # --- explanations and the linear form ----------------------------------------------

    def explanation_query(
        self, data: str | Source, *, doc: str | None = None, top: int | None = None
    ) -> exp.Select:
        """(doc_id, feature, contribution): why each document got its label rather than the
        runner-up; a document's contributions add up to log P(label) - log P(runner-up)."""
        if int(self.info.get("n_classes") or 0) < 2:
            raise SqlnbError(f"model {self.name!r} has one class: nothing to explain against")
        if top is not None and top < 1:
            raise SqlnbError("--top must be at least 1")
        final = templates.render(
            "explain/contributions.sql",
            features=self.kind.explain(self.name, self.params),
            documents=_ref(DOCUMENTS),
            base=self.kind.base(self.name),
            posterior=_ref(POSTERIOR),
            top=top if top is not None else 2**62,
        )
        assert isinstance(final, exp.Select)
        query = self._with_posterior(final, data)
        if doc is None:
            return query
        return (
            exp.select("*")
            .from_(query.subquery("e"))
            .where(exp.cast(exp.column("doc_id"), "VARCHAR").eq(exp.convert(str(doc))))
        )

    def explain(self, data: str | Source, *, doc: str | None = None, top: int | None = None) -> Any:
        """The explanation as a lazy relation (see :meth:`explanation_query`)."""
        return self._run(self.explanation_query(data, doc=doc, top=top))

    def weights_query(self) -> exp.Select:
        """(feature, weight): a two-class text model as a linear classifier."""
        if int(self.info.get("n_classes") or 0) != 2:
            raise SqlnbError(
                f"model {self.name!r} has {self.info.get('n_classes')} classes: "
                "the linear form needs exactly two"
            )
        tree = templates.render(
            "weights/text.sql", scores=self.kind.scores(self.name), base=self.kind.base(self.name)
        )
        assert isinstance(tree, exp.Select)
        return tree

    # --- evaluation ----------------------------------------------------------------------

    def evaluation_statements(
        self, data: str | Source, labels: str | Labels | None = None, *, guard: bool = True
    ) -> tuple[exp.Expr, list[exp.Expr], exp.Expr]:
        """(create the outcomes temp table, [confusion, per_class, summary], drop it)."""
        source = _source(data)
        if labels is None:
            labels = source.labels() if isinstance(source, (Table, Docs)) else "labels"
        labels = _labels(labels)
        truth = labels.query(self.db)
        _check_labels(self.db, truth, labels.table, purpose="evaluate")
        given = labels.label_type(self.db)
        if type_family(given) != type_family(self.label_type):
            raise SqlnbError(
                f"labels column {labels.label!r} of {labels.table!r} is {given}, but model "
                f"{self.name!r} was trained on {self.label_type} labels"
            )
        final = templates.render(
            "evaluate/outcomes.sql", truth=_ref(TRUTH), posterior=_ref(POSTERIOR), model=self.name
        )
        assert isinstance(final, exp.Select)
        documents = templates.render("input/documents.sql", source=_ref(TRUTH))
        assert isinstance(documents, exp.Select)
        outcomes = self._with_posterior(
            final.with_(TRUTH, as_=truth), source, documents=documents, guard=guard
        )
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

    def evaluate(self, data: str | Source, labels: str | Labels | None = None) -> dict[str, Any]:
        """Accuracy, macro-F1, log-loss, per-class precision/recall/F1/support, confusion."""
        create, (confusion, per_class, summary), drop_it = self.evaluation_statements(data, labels)
        self.db.execute(drop_it)
        self.db.execute(create)
        try:
            self._check_current()
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
        if self.kind.source != "tokens":
            return []
        return self.db.fetch_dicts(templates.render("show/top_words.sql", model=self.name, top=top))

    def gaussian(self) -> list[dict[str, Any]]:
        """Per class and Gaussian feature: mean and variance (table kinds)."""
        if self.kind.source != "table":
            return []
        return self.db.fetch_dicts(templates.render("show/gaussian.sql", model=self.name))

    def categories(self) -> list[dict[str, Any]]:
        """Per class, categorical feature and value: the probability (table kinds)."""
        if self.kind.source != "table":
            return []
        return self.db.fetch_dicts(templates.render("show/categories.sql", model=self.name))
