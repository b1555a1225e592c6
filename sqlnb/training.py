"""Training, appending and retuning: the statements that write a model, and applying them.

Each returns a :class:`Training`, the statements that (re)write one model after its inputs were
checked (reads, never writes), which :meth:`Training.apply` runs in one transaction or
:meth:`Training.script` prints for another engine, as sqlite-utils' ``transform_sql()`` and
``transform()``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec

from sqlglot import exp

from sqlnb import catalog, classes, events, keeping, multilabel, recorded, templates, versions
from sqlnb import labels as labels_mode
from sqlnb.catalog import CALIBRATION, CLASSES, MODELS, SHARED, Entry
from sqlnb.classes import check_class_prior, check_weighed, class_sizes, class_weighted
from sqlnb.engine import Database, dialects
from sqlnb.errors import SqlnbError
from sqlnb.features import Selection
from sqlnb.inputs import Docs, Labels, Source, Table, Tokens, as_source, labels_for, type_family
from sqlnb.inputs import Survey as Surveyed
from sqlnb.kinds import KINDS, Kind, kind_for
from sqlnb.kinds.base import Labeled
from sqlnb.kinds.params import declared, resolved
from sqlnb.kinds.text import carrying, has_word
from sqlnb.kinds.wide import BY_WORD
from sqlnb.pruning import Pruning
from sqlnb.rebalancing import rebalanced
from sqlnb.tokenizer import Tokenizer


@dataclass
class Training:
    """The statements that write model ``model``, its kind and its resolved hyperparameters."""

    db: Database
    model: str
    kind: Kind
    params: dict[str, Any]
    statements: list[exp.Expr]
    # the refusal of a model that learned no word (a new text model): names the inputs
    no_words: str | None = None
    # what the statements read, in words ("tokens table 'T'"), for errors about the data
    reads: str | None = None
    # the method of the calibration the statements drop (it was fitted to the old model)
    drops_calibration: str | None = None
    # the command a committed write keeps a version as (sqlnb.versions), and how many to keep
    command: str | None = None
    keep: int = versions.KEEP
    replaced: dict[str, Any] | None = None  # the model it replaces (None: read in apply)
    words: exp.Select | None = None  # a row where it learns a word (text.has_word), catalog.has_row

    def apply(self, *, functions: bool = True) -> Entry:
        """Run the statements in one transaction and :func:`finish` it (``functions`` off: a
        model that will not be committed); returns the model as written."""
        versions.check_keep(self.keep)  # before anything is written
        statements = self.statements
        if functions and self.command and not catalog.has_row(self.db, self.words, self.replaced):
            raise SqlnbError(str(self.no_words))  # unwritten; else the word tables keep versions
        with self.db.transaction():
            kept = versions.Kept()
            if functions and self.command:  # the version it replaces is kept
                tables = (*SHARED, *self.kind.tables)
                folds = keeping.folds(statements, self.model, tables, words=self.words is not None)
                kept = versions.before_write(
                    self.db, self.model, anew=self.command in versions.ANEW, folds=folds,
                    replaced=self.replaced)  # fmt: skip
                statements = keeping.rewritten(statements, self.model, kept)
                if self.replaced is None and self.command == "train":  # read in the write
                    self.drops_calibration = kept.calibration
                into = {_into(s) for s in statements if isinstance(s, exp.Insert)}
                statements = [s for s in statements if not _unneeded(s, self.model, kept, into)]
            returned = None  # the catalog row as its INSERT wrote it (sqlnb.recorded)
            for statement in statements:
                self.db.stage(_stage(statement))
                found = recorded.execute(self.db, statement, self.kind, self.params)
                returned = returned if found is None else found
            written = finish(self, functions=functions, kept=kept, returned=returned)
            self.db.stage("committing")
            return written

    def script(self, dialect_name: str) -> str:
        """The statements as one script of a dialect, in a transaction where it has one."""
        d = dialects.dialect(dialect_name)
        wrapped = [s for s in (d.begin, *self.statements, d.commit) if s is not None]
        return dialects.script(wrapped, dialect_name)


def finish(
    written: Training, *, functions: bool = True, kept: versions.Kept | None = None,
    returned: list[dict[str, Any]] | None = None,
) -> Entry:  # fmt: skip
    """The one step after every write of a model (train, append, retune, import, each fold
    of tune), inside its transaction: the kind's checks of what was written, the counts'
    overflow check, the refusal of a text model without a word, and (``functions``) the
    announcement that the model was written (:data:`sqlnb.events.MODEL_WRITTEN`: the SQL
    functions keep current). ``kept``: what the write's :func:`versions.before_write` did
    and knew (None: versions are read again); ``returned``: the catalog row as its INSERT
    returned it (:func:`sqlnb.recorded.execute`; None: read here). Returns the model as
    the catalog records it."""
    db, model, the_kind = written.db, written.model, written.kind
    entry, problem = recorded.written(db, model, the_kind, written.params, returned)
    kept_here = bool(functions and written.command and kept is not None and kept.key)
    if kept_here and kept is not None:  # before any refusal: no transaction undoes the write
        beyond = versions.beyond(kept, model, written.keep)  # (their rows copied: one statement)
        keeping.record(db, model, str(written.command), kept, entry, beyond)
    the_kind.checks.trained(db, model, written.params)
    if problem is not None:
        raise SqlnbError(f"{written.reads or 'the data'}: the model's counts overflow ({problem})")
    if written.no_words and not entry.info.get("n_features"):
        raise SqlnbError(written.no_words)
    if functions and written.command:
        versions.after_write(db, model, written.command, written.keep, kept, recorded=kept_here)
    if functions:  # the SQL functions, among others, keep in step (sqlnb.events)
        events.announce(events.MODEL_WRITTEN, db, model)
    return entry


def _unneeded(statement: exp.Expr, model: str, kept: versions.Kept, into: set[str]) -> bool:
    """Whether ``statement`` deletes ``model``'s rows where none are: they moved to the kept
    version's key (``kept.moved``), or the replaced model has none in the table (``kept.empty``)
    and the write inserts none there either (rows an interrupted write left must go first)."""
    if not catalog.deleting(statement, model):
        return False
    table = statement.this.name
    return table not in into if table in kept.empty else kept.moved


def _into(statement: exp.Insert) -> str:  # the table ``statement`` inserts into
    into = statement.this
    return str((into.this if isinstance(into, exp.Schema) else into).name)


def _stage(statement: exp.Expr) -> str:
    """What a training's statement does, for the progress display: counting (into a table of
    counts), deriving (into another of sqlnb's tables), or preparing."""
    if isinstance(statement, exp.Insert):
        name = statement.this.find(exp.Table)
        every = (t for k in KINDS.values() for t in (*catalog.SHARED, *k.tables))
        counts = {t.name for t in every if t.counts}
        return "counting" if name is not None and name.name in counts else "deriving"
    return "preparing"


@dataclass
class _Batch:
    """Checked inputs of a training or an append: the kind's input queries and the labels."""

    inputs: dict[str, exp.Query]
    labels_query: exp.Select
    label_values: list[str]
    label_type: str
    survey: Surveyed | None = None  # the labels' one-pass check (None: taken as checked)


def _read(
    db: Database,
    source: Source,
    labels: str | Labels | None,
    the_kind: Kind,
    params: dict[str, Any],
    pruning: Pruning | None = None,
    *,
    check: bool = True,
    dialect: str | None = None,
    tokenizer: Tokenizer | None = None,
) -> _Batch:
    """Check the inputs (reads, never writes; unless they were checked already: ``check``
    off) and return them as queries in the SQL of ``dialect`` (default: the database's)."""
    if check and isinstance(source, Table):
        source.check(db)
    the_labels = labels_for(source, labels)
    labels_query = the_labels.query(db)
    inputs = the_kind.inputs(db, source, params, dialect=dialect, tokenizer=tokenizer)
    if pruning is not None:
        inputs = {k: pruning.apply(q, labels_query) for k, q in inputs.items()}
    if check and isinstance(source, Tokens):
        source.check(db, next(iter(inputs.values())))
    survey = the_labels.survey(db, labels_query) if check else None
    values = survey.labels if survey else the_labels.values(db, labels_query)
    return _Batch(inputs, labels_query, values, the_labels.label_type(db), survey)


def parameters(
    model: str, the_kind: Kind, params: dict[str, Any], label_type: str, n_classes: int,
    surveyed: exp.Query | None = None,
) -> list[exp.Expr]:  # fmt: skip
    """The derived tables (prior, the kind's parameters) and the catalog row, from the counts
    of ``n_classes`` classes (0: any number); the prior from the ``surveyed`` classes if given."""
    statements = [
        classes.prior(model, params, surveyed),
        *the_kind.derive(model, params, n_classes),
        catalog.record(model, the_kind, params, label_type),
    ]
    if params.get("tokenizer"):
        statements.append(Tokenizer.from_dict(params["tokenizer"]).record(model))
    return statements


def writing(
    db: Database,
    model: str,
    the_kind: Kind,
    params: dict[str, Any],
    inputs: dict[str, exp.Query],
    labeled: Labeled,
    labels: tuple[str, int],
    *,
    dialect: str | None = None,
    replaced: dict[str, Any] | None = None,
) -> list[exp.Expr]:
    """The statements that write model ``model`` (``replaced``: :func:`catalog.replaced`) anew
    from checked ``inputs`` and ``labeled`` documents whose labels are of type and number
    ``labels`` (a script for ``dialect``), rows replaced as it does best (catalog.overwrites)."""
    statements = [
        *catalog.replacing(db, model, the_kind, script=dialect is not None, found=replaced),
        templates.render("train/classes.sql", model=model, labeled=labeled.summed),
        *the_kind.count(model, inputs, labeled, params),
        *parameters(model, the_kind, params, *labels, labeled.known),
    ]
    engine = dialects.dialect(dialect) if dialect is not None else db.dialect
    return catalog.overwrites(statements, model, engine)


P = ParamSpec("P")


def _probing(
    build: Callable[Concatenate[Database, P], Training],
) -> Callable[Concatenate[Database, P], Training]:
    """A function that builds a :class:`Training` (reads only), its schema probes asked once
    each (:meth:`Database.probing`)."""

    @functools.wraps(build)
    def built(db: Database, /, *args: P.args, **kwargs: P.kwargs) -> Training:
        with db.probing():
            return build(db, *args, **kwargs)

    return built


@_probing
def train(
    db: Database,
    data: str | Source = "tokens",
    labels: str | Labels | None = None,
    *,
    model: str = "default",
    kind: str | None = None,
    hyper: dict[str, Any] | None = None,
    tokenizer: Tokenizer | None = None,
    pruning: Pruning | None = None,
    select: Selection | None = None,
    check: bool = True,
    dialect: str | None = None,
    hierarchy: tuple[str | None, float | None] = (None, None),
) -> Training:
    """Training ``model`` from scratch (replacing a model of that name). Training from a
    :class:`Docs` table tokenizes with ``tokenizer`` (stored with the model) and prunes the
    vocabulary with ``pruning``; ``select`` keeps the best words of the labeled documents
    (after pruning). Without ``check`` the inputs are taken as checked. With
    ``dialect`` the statements are a script for that engine (every table created, text
    tokenized in its SQL), to print rather than apply. ``hierarchy`` (separator, confidence):
    labels that form a tree (:mod:`sqlnb.labels`)."""
    catalog.check_name(model)
    if dialect is None:
        db.backend.check_writable()
    source = as_source(data)
    the_kind = kind_for(kind, source)
    params = the_kind.prepare(db, source, resolved(the_kind, hyper or {}))
    if (tokenizer is not None or pruning is not None) and not isinstance(source, Docs):
        raise SqlnbError("tokenizer and pruning options apply to training from text (--docs)")
    if isinstance(source, Docs):
        params["tokenizer"] = (tokenizer or Tokenizer()).as_dict()
        if pruning is not None:
            params["pruning"] = pruning.as_dict()
    batch = _read(
        db,
        source,
        labels,
        the_kind,
        params,
        pruning,
        check=check,
        dialect=dialect,
        tokenizer=tokenizer if isinstance(source, Docs) else None,
    )
    if select is not None:
        if not isinstance(source, (Tokens, Docs)):
            raise SqlnbError("--select keeps words: it is for text (--tokens or --docs)")
        batch.inputs = {
            k: select.apply(db, q, batch.labels_query, batch.label_values)
            for k, q in batch.inputs.items()
        }
        params["select"] = str(select)
    params.update(labels_mode.stored(*hierarchy, batch.label_type))  # (separator, confidence)
    check_class_prior(params["class_prior"], batch.label_values)
    if params["class_weight"] == "balanced":  # what appending needs to weigh again
        surveyed = batch.survey.sizes if batch.survey else None
        params["class_sizes"] = surveyed or class_sizes(db, batch.labels_query)
    weights = params["class_weight"]
    weighted = class_weighted(batch.labels_query, weights, batch.label_values)
    named = labels_for(source, labels)
    counted = batch.survey.weighing(weights) if batch.survey else None
    check_weighed(db, weighted, named.name, weights, "train on", counted)
    # classes as surveyed, up to BY_WORD (their SQL grows with them); not a script, no weights
    survey = batch.survey if weights is None and not dialect else None
    known = classes.known(survey, BY_WORD) if survey else None
    labeled = carrying(source, named, Labeled.of(weighted, known), (weights, select, pruning))
    overwrites = dialect is None and db.backend.keeps_in_overwrite  # (Training.words)
    words = has_word(the_kind, batch.inputs, labeled, params) if overwrites else None
    replaced = catalog.replaced(db, model, script=dialect is not None, found=words)  # (once)
    label_types = (batch.label_type, len(batch.label_values))
    statements = writing(db, model, the_kind, params, batch.inputs, labeled, label_types,
                         dialect=dialect, replaced=replaced or {})  # fmt: skip
    if isinstance(source, Docs):  # a long stop-word list, kept for the queries after this
        statements += (tokenizer or Tokenizer()).storing()
    dropped = (replaced or {}).get(catalog.METHOD)  # replacing the model deletes it
    return Training(db, model, the_kind, params, statements, _no_words(source, labels),
                    _named(source), dropped, "train", replaced=replaced, words=words)  # fmt: skip


def append(
    db: Database,
    data: str | Source = "tokens",
    labels: str | Labels | None = None,
    *,
    model: str = "default",
    dialect: str | None = None,
) -> Training:
    """Adding a batch of labeled documents (or rows) to ``model`` by adding their counts, as
    scikit-learn's ``partial_fit``: the result equals training on the union. The kind,
    hyperparameters and tokenizer are the model's; new classes and words may appear. With
    ``dialect``, a script for that engine (see :func:`train`)."""
    if dialect is None:
        db.trusted(writing=True)  # before reading the model it adds to
    current = catalog.entry(db, model)
    multilabel.refuse(current, "training.append (sqlnb.multilabel.counting.append)")
    if dialect is None:
        db.backend.check_writable()
    the_kind, params = current.kind, dict(current.params)
    source = as_source(data)
    kind_for(the_kind.name, source)
    if params.get("pruning"):
        raise SqlnbError(
            f"model {model!r} was trained with vocabulary pruning, which depends "
            "on all documents at once: it cannot be appended to; train again"
        )
    if params.get("em"):
        raise SqlnbError(
            f"model {model!r} was trained by EM over unlabeled documents: appending would add "
            "counts without running EM again; train it again with --unlabeled"
        )
    the_kind.checks.append(model, params)
    batch = _read(db, source, labels, the_kind, params, dialect=dialect)
    if params.get("select"):  # the model's words, as selected at training
        batch.inputs = {
            k: templates.select("features/known.sql", tokens=q, model=model)
            for k, q in batch.inputs.items()
        }
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
    counts = (CLASSES, *(t for t in the_kind.tables if t.counts))
    derived = catalog.derived(the_kind)
    weights = params.get("class_weight")
    base = model  # the counts the batch's are added to
    scaled: list[exp.Expr] = []
    if weights == "balanced":  # the old counts and the batch weighed by the union's sizes
        weights, scaled, base = rebalanced(db, model, params, batch.labels_query, counts)
    # a label the weights do not name weighs 1, new ones included
    named = {k: w for k, w in (weights or {}).items() if k in batch.label_values}
    labeled = Labeled.of(class_weighted(batch.labels_query, named or None, batch.label_values))
    check_weighed(db, labeled.labels, labels_for(source, labels).name, named, "append")
    sort_key: exp.Expr = exp.column("label", table="g")
    if type_family(current.label_type) != "text":
        sort_key = exp.cast(
            sort_key, exp.DataType.build(current.label_type, dialect=templates.SOURCE_DIALECT)
        )
    statements: list[exp.Expr] = [
        *catalog.creates(db, the_kind, script=dialect is not None),  # a newer sqlnb's tables
        *catalog.deletes(staging, counts),
        *catalog.deletes(merged, counts),
        *scaled,
        templates.render("train/classes.sql", model=staging, labeled=labeled.rows),
        *the_kind.count(staging, batch.inputs, labeled, params),
        templates.render(
            "append/classes.sql", model=base, batch=staging, merged=merged, sort_key=sort_key
        ),
        *(
            templates.render(t.merge, model=base, batch=staging, merged=merged)
            for t in counts
            if t is not CLASSES  # merged above, renumbering the classes
        ),
        *catalog.deletes(model, (MODELS, *counts, *derived)),
        *catalog.deletes(staging, counts),
        *(catalog.deletes(base, counts) if base != model else []),
    ]
    for table in counts:  # the merged counts become the model's
        rows = (
            exp.select(exp.convert(model).as_("model"), *table.columns)
            .from_(table.node())
            .where(exp.column("model").eq(exp.convert(merged)))
        )
        statements.append(exp.insert(rows, table.node(), columns=["model", *table.columns]))
    statements += catalog.deletes(merged, counts)
    known = {c["label"] for c in catalog.classes(db, model)}
    n_classes = len(known | set(batch.label_values))
    statements += parameters(model, the_kind, params, current.label_type, n_classes)
    statements += catalog.deletes(model, [CALIBRATION])  # fitted to the model before the batch
    dropped = catalog.calibration(db, model, current)
    return Training(db, model, the_kind, params, statements, reads=_named(source),
                    drops_calibration=dropped, command="append")  # fmt: skip


@_probing
def retune(db: Database, model: str, hyper: dict[str, Any]) -> Training:
    """Changing a trained model's smoothing or priors without reading its training data: the
    derived tables are recomputed from the stored counts. Giving a hyperparameter sets the
    ones it resets (declared with it) back to their defaults: a learned prior again."""
    db.trusted(writing=True)
    current = catalog.entry(db, model)
    the_kind = current.kind
    multilabel.refuse(current, "retune")
    if current.params.get("em"):
        raise SqlnbError(
            f"model {model!r} was trained by EM: its counts are its last iteration's under "
            "its own hyperparameters; train it again with --unlabeled to change them"
        )
    taken = declared(the_kind)
    given = {k: v for k, v in current.params.items() if k in taken}
    for name, value in hyper.items():
        if value is None:
            continue
        if name in taken and not taken[name].retune:
            raise SqlnbError(
                f"{taken[name].flag} shaped model {model!r}'s counts: train it again to change it"
            )
        for reset in taken[name].resets if name in taken else ():
            given[reset] = None
        given[name] = value
    params = {**current.params, **resolved(the_kind, given)}
    check_class_prior(params["class_prior"], [c["label"] for c in catalog.classes(db, model)])
    statements = catalog.creates(db, the_kind)  # a table a newer sqlnb added
    statements += catalog.deletes(model, (MODELS, *catalog.derived(the_kind)))
    statements += parameters(model, the_kind, params, current.label_type, current.n_classes)
    if params == current.params:  # the same model: its calibration still fits
        return Training(db, model, the_kind, params, statements, command="retune")
    statements += catalog.deletes(model, [CALIBRATION])  # fitted to the model before retuning
    dropped = catalog.calibration(db, model, current)
    return Training(db, model, the_kind, params, statements, drops_calibration=dropped,
                    command="retune")  # fmt: skip


def drop(db: Database, model: str) -> None:
    """Remove a model and all its rows."""
    db.trusted(writing=True)
    current = catalog.entry(db, model)
    with db.transaction():
        for statement in catalog.drop(current):
            db.execute(statement)
        versions.drop_all(db, model)
        events.announce(events.MODEL_WRITTEN, db, model)


def _named(source: Source) -> str:
    """The input a training reads, in words."""
    what = {Tokens: "tokens table", Docs: "docs table", Table: "table"}[type(source)]
    return f"{what} {source.table!r}"


def _no_words(source: Source, labels: str | Labels | None) -> str | None:
    """Why a text model with an empty vocabulary is refused, naming its inputs (scikit-learn
    refuses an empty vocabulary too)."""
    if isinstance(source, Docs):
        return f"docs table {source.table!r} has no word in any labeled document: nothing to learn"
    if isinstance(source, Tokens):
        labels_name = labels_for(source, labels).name
        return (
            f"tokens table {source.table!r} has no word of a document in labels table "
            f"{labels_name!r}: nothing to learn"
        )
    return None
