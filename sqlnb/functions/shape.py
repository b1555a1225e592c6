"""What a database's SQL functions are built for (:class:`Shape`), and their parameters."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import catalog, multilabel, templates
from sqlnb.catalog import TOKENIZERS
from sqlnb.errors import SqlnbError
from sqlnb.functions import forms, wrap
from sqlnb.inputs import Docs
from sqlnb.kinds import KINDS
from sqlnb.kinds.tfidf import DOC_COUNT
from sqlnb.version import __version__

if TYPE_CHECKING:
    from sqlnb.engine import Database
    from sqlnb.functions.forms import Form
    from sqlnb.kinds.base import Kind

LOOKUP = "sqlnb_lookup"  # DuckDB's stored lookup rows (sqlnb.functions.lists)

# The functions' parameters: the model's name, the text (and sqlnb_predict's tokens table).
MODEL, TEXT, TOKENS_ARG = (exp.column(n) for n in (wrap.MODEL, "sqlnb_text", "sqlnb_tokens"))

# The kinds the functions serve: those that read raw text (a function's argument is a text).
SERVED: tuple[Kind, ...] = tuple(k for k in KINDS.values() if Docs in k.reads)


@dataclass(frozen=True)
class Shape:
    """What the functions are built for: the database's tokenizers (canonical JSON, see
    :meth:`Tokenizer.key`) and whether any model's calibration scales its joint log-likelihood
    or maps its posterior (:data:`sqlnb.catalog.METHODS`), or has a document transform; on
    DuckDB, whether a text model has no stored lookup row (``lazy``: the macros then build it
    in each query). A step no model needs is left out of them (on DuckDB, binding a function's
    unused branches costs more than running it)."""

    tokenizers: tuple[str, ...] = ()
    scaled: bool = True
    mapped: bool = True
    transformed: bool = True
    lazy: bool = True
    # For PostgreSQL's functions, which branch by model: each text model with a tokenizer,
    # and its signature (its kind, the kind's shape of it, its tokenizer, its calibration).
    models: tuple[tuple[str, str], ...] = ()
    hierarchy: bool = False  # a model's labels form a tree (sqlnb.labels): DuckDB walks it
    # A model has several labels per document (sqlnb.multilabel): sqlnb_classify returns lists
    multi: bool = False

    MARKS = ("+scaled", "+mapped", "+transformed", "+lazy")
    MODEL = "=model "
    MULTI = "+multi_label"

    @classmethod
    def of(cls, db: Database, form: Form | None = None) -> Shape:
        """The database's shape now, for its ``form`` of functions (default: its own)."""
        return cls.read(db, form)[0]

    @classmethod
    def read(
        cls, db: Database, form: Form | None = None, record: exp.Table | None = None
    ) -> tuple[Shape, list[tuple[str, str | None]]]:
        """:meth:`of`, and in the same query the (version, settings) rows of the functions'
        ``record`` (given: sqlnb_functions), another sqlnb's as one row (its version, None)."""
        form = form or forms.of(db)
        if form is None:
            raise SqlnbError(f"{db.dialect.name} keeps no SQL functions")
        found: dict[str, list[Any]] = {tag: [] for tag in (*_READ, *_BUILT)}
        for tag, value in db.fetch(_reading(db, form.lookup_rows, record)):
            found[str(tag)].append(value)
        built = [(__version__, v) for v in found["built"]]
        built += [(str(v), None) for v in found["other"] if v is not None]
        tokenizers = tuple(sorted(found["tokenizers"], key=lambda v: (v is not None, str(v))))
        steps = {catalog.METHODS.get(str(m)) for m in found["methods"]}
        transformed = any(v is not None for v in found["transformed"])
        models = _signatures(db) if form.by_model else ()
        lazy = bool(found["missing"])
        scaled, mapped = catalog.SCALE in steps, catalog.MAP in steps
        kept = [json.loads(str(p)) for p in found["params"]]
        tree = any("hierarchy" in p for p in kept)
        multi = any(multilabel.marked(p) for p in kept)
        return cls(tokenizers, scaled, mapped, transformed, lazy, models, tree, multi), built

    @property
    def keys(self) -> list[str]:
        """As recorded in sqlnb_functions: the tokenizers, a mark for each step, the models."""
        flags = (self.scaled, self.mapped, self.transformed, self.lazy)
        marks = [m for m, on in zip(self.MARKS, flags) if on] + ["+hierarchy"] * self.hierarchy
        marks += [self.MULTI] * self.multi
        models = [self.MODEL + json.dumps(pair) for pair in self.models]
        return [*self.tokenizers, *marks, *models]

    @classmethod
    def recorded(cls, keys: list[str]) -> Shape:
        pairs = [json.loads(k.removeprefix(cls.MODEL)) for k in keys if k.startswith(cls.MODEL)]
        models = tuple((str(pair[0]), str(pair[1])) for pair in pairs)
        plain = [k for k in keys if not k.startswith(cls.MODEL)]
        scaled, mapped, transformed, lazy = (m in keys for m in cls.MARKS)
        tokenizers = tuple(k for k in plain if k not in cls.MARKS)
        tokenizers = tuple(k for k in tokenizers if k not in ("+hierarchy", cls.MULTI))
        tree, multi = "+hierarchy" in keys, cls.MULTI in keys
        return cls(tokenizers, scaled, mapped, transformed, lazy, models, tree, multi)


# What Shape.of reads, in one query: a row (tag, value) for each tokenizer, calibration method,
# a model with a document transform (any), a text model without a lookup row, a model's params.
_READ = ("tokenizers", "methods", "transformed", "missing", "params")
# And, for Shape.read, the functions' record: this sqlnb's rows, and another's version if any.
_BUILT = ("built", "other")


def _reading(db: Database, lookup_rows: bool, record: exp.Table | None = None) -> exp.Query:
    """The query of :meth:`Shape.read`: one statement instead of one a question (a job each on
    Spark); the tables that do not exist (yet) are left out."""
    parts: dict[str, exp.Select] = {
        "tokenizers": exp.select(exp.column("settings").as_("v"))
        .distinct()
        .from_(TOKENIZERS.node()),
        "params": exp.select(exp.column("params").as_("v")).from_(catalog.MODELS.node()),
    }
    if db.relation_type(catalog.CALIBRATION.node()) is not None:
        parts["methods"] = (
            exp.select(exp.column("method").as_("v")).distinct().from_(catalog.CALIBRATION.node())
        )
    if db.relation_type(DOC_COUNT.node()) is not None:
        parts["transformed"] = exp.select(exp.Min(this=exp.column("model")).as_("v")).from_(
            DOC_COUNT.node()
        )
    if lookup_rows:
        parts["missing"] = _missing(db).select(exp.column("model").as_("v"), append=False)
    if record is not None:  # (its version, not a column of the union: one type in every part)
        ours = exp.column("version").eq(exp.convert(__version__))
        parts["built"] = exp.select(exp.column("settings").as_("v")).from_(record).where(ours)
        other = exp.Max(this=exp.column("version")).as_("v")
        parts["other"] = exp.select(other).from_(record.copy()).where(exp.not_(ours.copy()))
    query: exp.Query | None = None
    for tag in (*_READ, *_BUILT):
        if tag in parts:
            part = exp.select(exp.convert(tag).as_("tag"), exp.column("v", "r")).from_(
                parts[tag].subquery("r", copy=False)
            )
            query = part if query is None else exp.union(query, part, distinct=False, copy=False)
    assert query is not None
    return query


def _signatures(db: Database) -> tuple[tuple[str, str], ...]:
    """(model, signature) of each text model with a tokenizer, in name order: models of one
    signature score with the same SQL (:func:`sqlnb.functions.rows.branches`). One read: the
    catalog rows with each one's calibration method (a column, as :func:`catalog.row`'s)."""
    found = []
    current = catalog.listed(db, templates.select("catalog/models.sql"), "m")  # no versions
    if db.relation_type(catalog.CALIBRATION.node()) is not None:
        method = templates.select("catalog/calibration.sql", model=exp.column("model", "m"))
        current = current.select(method.subquery().as_(catalog.METHOD), copy=False)
    for row in db.fetch_dicts(current):
        the_kind, params = KINDS.get(str(row["kind"])), json.loads(row["params"])
        if the_kind not in SERVED or not params.get("tokenizer"):
            continue
        assert the_kind is not None
        terms = list(the_kind.terms(params).signature)
        shape = [the_kind.name, terms, params["tokenizer"]]
        # a label mode: multi-label at its threshold (the query holds it as a literal)
        mode = ["multi_label", params.get("threshold")] if multilabel.marked(params) else []
        if params.get("hierarchy"):  # a tree: its paths and confidence, literals there too
            leaves = json.dumps([str(c["label"]) for c in catalog.classes(db, row["model"])])
            digest = hashlib.sha256(leaves.encode()).hexdigest()[:16]
            mode += ["hierarchy", params["hierarchy"], params.get("confidence"), digest]
        calibrated = row.get(catalog.METHOD)  # (None: uncalibrated)
        calibrated = None if calibrated is None else str(calibrated)
        signature = json.dumps([*shape, calibrated, *mode], sort_keys=True)
        found.append((str(row["model"]), signature))
    return tuple(sorted(found))


def stored(db: Database) -> bool:
    """Whether this database keeps lookup rows (DuckDB's macros: ``Form.lookup_rows``)."""
    return db.relation_type(exp.to_table(LOOKUP)) is not None


def _missing(db: Database) -> exp.Select:
    """The query of the text models without a stored lookup row (column ``model``)."""
    texts = catalog.listed(db, exp.select("model").from_(catalog.MODELS.node()))
    kinds = [k.name for k in SERVED]
    tokenized = exp.select("model").from_(TOKENIZERS.node())  # only these have a row
    texts = texts.where(exp.column("kind").isin(*(exp.convert(k) for k in kinds)))
    texts = texts.where(exp.column("model").isin(query=tokenized))
    if stored(db):
        texts = texts.where(
            exp.column("model").isin(query=exp.select("model").from_(LOOKUP)).not_()
        )
    return texts


def missing(db: Database) -> list[str]:
    """The text models without a stored lookup row (the macros build theirs in each query)."""
    return sorted(str(r[0]) for r in db.fetch(_missing(db).order_by("model")))
