"""Where data comes from, under the user's names: tokens, labels, a wide table, raw text.

Each resolves against a database to a query with sqlnb's column names (``doc_id, word, count``
and ``doc_id, label``) after checking that the table and its columns exist, and checks its rows
(NULL ids, bad counts, conflicting labels) before anything is written. A source is a table or
view name (dots separate schema and table) or, on DuckDB, a Parquet path or glob.
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass, replace
from typing import TYPE_CHECKING

from sqlglot import exp

from sqlnb import templates
from sqlnb.errors import SqlnbError

if TYPE_CHECKING:
    from sqlnb.engine import Database


def source_node(name: str) -> exp.Table:
    """A table, view or Parquet file (``*.parquet``, globs allowed) as a FROM item."""
    if name.endswith(".parquet") or ("*" in name and ".parquet" in name):
        return exp.Table(this=exp.ReadParquet(expressions=[exp.Literal.string(name)]))
    return templates.table(name)


def require(
    table: str,
    columns: dict[str, str],
    wanted: dict[str, str],
    flags: dict[str, str] | None = None,
) -> None:
    """Refuse a table that lacks a column: ``wanted`` maps each role to the column's name.
    For a role with an option in ``flags`` (an id column), the table's one plausible id
    column (``id``, ``..._id``), if it has exactly one, is suggested with that option."""
    for role, column_name in wanted.items():
        if column_name not in columns:
            have = ", ".join(columns) or "none"
            hint = ""
            flag = (flags or {}).get(role)
            if flag is not None:
                others = set(wanted.values())
                plausible = [c for c in columns if c not in others and _id_like(c)]
                if len(plausible) == 1:
                    hint = f": give {flag} {plausible[0]}"
            raise SqlnbError(
                f"table {table!r} has no {role} column {column_name!r} (its columns: {have})" + hint
            )


def _id_like(column: str) -> bool:
    """``id``, ``review_id``, ``reviewId``: a column that may be an id.

    >>> [_id_like(c) for c in ("id", "review_id", "reviewId", "paid", "text")]
    [True, True, True, False, False]
    """
    return column.lower() == "id" or column.lower().endswith("_id") or column.endswith("Id")


def _user(name: str) -> exp.Column:
    return templates.col(name, quoted=True)


@dataclass(frozen=True)
class Tokens:
    """A tokens table: one row per (document, word) with a count; duplicate rows add up.

    Without a count column (``count=None`` and no column named ``count``) each row counts 1.
    """

    table: str = "tokens"
    doc: str = "doc_id"
    word: str = "word"
    count: str | None = None

    def _count_column(self, columns: dict[str, str]) -> str | None:
        """The column holding the counts: the one given, else one named ``count``, else none
        (every row counts 1)."""
        return self.count if self.count is not None else "count" if "count" in columns else None

    def query(self, db: Database) -> exp.Select:
        columns = db.columns(source_node(self.table))
        flags = {"document id": "--doc-column"}
        require(self.table, columns, {"document id": self.doc, "word": self.word}, flags)
        name = self._count_column(columns)
        if name is None:
            return self.render(exp.convert(1))
        require(self.table, columns, {"count": name})
        numbers(db, self.table, columns, name, "counts")
        return self.render(_user(name))

    def integer_counts(self, db: Database) -> bool:
        """Whether the counts are integers (a column of an integer type, or 1 for every row):
        then none can be NaN or infinite. False where the engine has no column types."""
        columns = db.columns(source_node(self.table))
        name = self._count_column(columns)
        return name is None or type_family(columns.get(name, "")) == "integer"

    def render(self, count: exp.Expr, source: exp.Expr | None = None) -> exp.Select:
        """The tokens query, unchecked, with ``count`` (a column or 1) from ``source``."""
        return templates.select(
            "input/tokens.sql",
            doc=_user(self.doc),
            word=_user(self.word),
            count=count,
            source=source or source_node(self.table),
        )

    def check(self, db: Database, query: exp.Query) -> None:
        """Refuse NULL document ids or words and NULL, NaN, infinite or negative counts in the
        rows of ``query`` (this source's tokens, as the model reads them)."""
        count = templates.col("count", "t")
        finite = (
            count.is_(exp.null()).not_()
            if self.integer_counts(db)
            else exp.Mul(this=count.copy(), expression=exp.convert(0)).eq(0)
        )
        row = db.fetch_dicts(templates.render("check/tokens.sql", tokens=query, finite=finite))[0]
        name = self.table
        if row["null_doc"]:
            raise SqlnbError(
                f"tokens table {name!r} has {row['null_doc']} rows with a NULL document id "
                f"in column {self.doc!r}"
            )
        if row["null_word"]:
            raise SqlnbError(
                f"tokens table {name!r} has {row['null_word']} rows with a NULL word "
                f"in column {self.word!r}"
            )
        if row["not_finite"]:
            raise SqlnbError(
                f"tokens table {name!r} has {row['not_finite']} counts that are NULL, NaN or "
                "infinite"
            )
        if row["negative"]:
            raise SqlnbError(f"tokens table {name!r} has {row['negative']} negative counts")


# What sql/check/survey.sql counts, summed over the labels.
SURVEYED = ("n_rows", "null_doc", "null_label", "bad_weight", "conflicts", "n_docs")


@dataclass(frozen=True)
class Survey:
    """Checked labels: the distinct labels as text, in class order; each one's documents,
    those of its documents that weigh more than 0 (their sample weight), and its documents'
    summed sample weight (the class's n_docs)."""

    labels: list[str]
    sizes: dict[str, int]
    weighed: dict[str, int]
    weights: dict[str, float]

    def weighing(self, weights: str | dict[str, float] | None) -> tuple[int, int]:
        """The labeled documents and those that weigh more than 0 under class ``weights``
        (sqlnb.classes.class_weighted's: 'balanced' gives each class a weight above 0)."""
        factor = weights if isinstance(weights, dict) else {}
        kept = sum(n for k, n in self.weighed.items() if factor.get(k, 1.0) > 0)
        return sum(self.sizes.values()), kept


@dataclass(frozen=True)
class Labels:
    """A labels table: one row per document with its label (text, integer, boolean, ...).

    Without a ``table``, the labels of the data they label (see :func:`labels_for`).
    """

    table: str | None = None
    doc: str = "doc_id"
    label: str = "label"
    weight: str | None = None
    # what the table is, for errors, and whether each of its rows is a document of its own
    # (a docs table: two rows of one id are refused, not merged)
    what: str = "labels table"
    one_row_each: bool = False
    several: bool = False  # several labels per document (train --multi-label, sqlnb.multilabel)

    @property
    def name(self) -> str:
        if self.table is None:
            raise SqlnbError("labels without a table: resolve them with labels_for()")
        return self.table

    def query(self, db: Database) -> exp.Select:
        columns = db.columns(source_node(self.name))
        flag = "--id-column" if self.one_row_each else "--doc-column"
        wanted = {"document id": self.doc, "label": self.label}
        require(self.name, columns, wanted, {"document id": flag})
        if self.weight is not None:
            require(self.name, columns, {"weight": self.weight})
        return templates.select(
            "input/labels.sql",
            doc=_user(self.doc),
            label=_user(self.label),
            weight=exp.convert(1) if self.weight is None else _user(self.weight),
            source=source_node(self.name),
        )

    def label_type(self, db: Database) -> str:
        return db.value_type(self.query(db), "label")

    def check(self, db: Database, query: exp.Select, purpose: str = "train on") -> list[str]:
        """Refuse an empty labels table, NULL ids or labels, bad sample weights and documents
        with two labels; returns the distinct labels as text, in class order."""
        return self.survey(db, query, purpose).labels

    def survey(self, db: Database, query: exp.Select, purpose: str = "train on") -> Survey:
        """:meth:`check`, with the documents of each label and those that weigh more than 0:
        all from one pass over the labels (``sql/check/survey.sql``)."""
        every_row = query.copy()
        every_row.set("distinct", None)  # NULLs are counted per row, not per distinct pair
        rows = db.fetch_dicts(templates.render("check/survey.sql", labels=every_row))
        total = {k: sum(int(r[k] or 0) for r in rows) for k in SURVEYED}
        name = f"{self.what} {self.name!r}"
        if not total["n_rows"]:
            raise SqlnbError(f"{name} is empty: nothing to {purpose}")
        if total["null_doc"]:
            raise SqlnbError(
                f"{name} has {total['null_doc']} rows with a NULL document id in column "
                f"{self.doc!r}"
            )
        if total["null_label"]:
            raise SqlnbError(
                f"{name} has {total['null_label']} rows with a NULL label in column {self.label!r}"
            )
        if total["bad_weight"]:
            raise SqlnbError(
                f"{name} has {total['bad_weight']} sample weights that are "
                "NULL, NaN, infinite or negative"
            )
        if total["conflicts"] and not self.several:
            doc = db.fetch(templates.render("check/conflict.sql", labels=query))[0][0]
            raise SqlnbError(
                f"{name} gives document {doc} two different labels (several labels per "
                "document: train --multi-label)"
            )
        if self.one_row_each and total["n_docs"] != total["n_rows"]:
            doc = db.fetch(templates.render("check/conflict.sql", labels=every_row))[0][0]
            raise SqlnbError(
                f"{name} has two rows for document {doc}: each row is a document, so "
                f"its ids (column {self.doc!r}) must be unique"
            )
        return Survey(
            [str(r["label_text"]) for r in rows],
            {str(r["label_text"]): int(r["n_docs"]) for r in rows},
            {str(r["label_text"]): int(r["weighed"] or 0) for r in rows},
            {str(r["label_text"]): float(r["weight"] or 0) for r in rows},
        )

    def values(self, db: Database, query: exp.Select) -> list[str]:
        """The distinct labels of ``query`` (these labels' query) as text, in class order."""
        return [r[0] for r in db.fetch(templates.render("check/label_values.sql", labels=query))]


@dataclass(frozen=True)
class Table:
    """A wide table: one row per example (``id``), its ``label``, one column per feature.

    ``features`` picks the feature columns (default: every other column); ``gaussian`` and
    ``categorical`` force a column's likelihood whatever its type.
    """

    table: str
    id: str = "id"
    label: str | None = "label"
    features: tuple[str, ...] | None = None
    gaussian: tuple[str, ...] = ()
    categorical: tuple[str, ...] = ()
    weight: str | None = None

    def labels(self) -> Labels:
        if self.label is None:
            raise SqlnbError(f"table {self.table!r}: give the label column")
        return Labels(self.table, self.id, self.label, self.weight, "table")

    def columns(self, db: Database) -> dict[str, str]:
        """The table's columns and their types (on SQLite, the storage class of the values)."""
        columns = db.columns(source_node(self.table))
        require(self.table, columns, {"id": self.id})
        if not db.dialect.typed_columns:  # the storage class of the values
            query = exp.select("*").from_(source_node(self.table))
            columns = {c: db.value_type(query, c) for c in columns}
        return columns

    def ids(self, db: Database) -> exp.Select:
        columns = db.columns(source_node(self.table))
        require(self.table, columns, {"id": self.id})
        return templates.select("input/ids.sql", id=_user(self.id), source=source_node(self.table))

    def check(self, db: Database) -> None:
        """Refuse NULL or duplicate ids."""
        row = db.fetch_dicts(
            templates.render("check/table.sql", id=_user(self.id), source=source_node(self.table))
        )[0]
        if row["null_id"]:
            raise SqlnbError(
                f"table {self.table!r} has {row['null_id']} rows with a NULL id in column "
                f"{self.id!r}"
            )
        if row["n_rows"] != row["n_ids"]:
            raise SqlnbError(f"table {self.table!r}: id column {self.id!r} is not unique")


@dataclass(frozen=True)
class Docs:
    """A table of documents: an id and a text column (and, for training, maybe a label).
    The id column is ``doc=`` as for :class:`Tokens` and :class:`Labels` (or ``id=``).

    >>> Docs("reviews", doc="review_id").id
    'review_id'
    """

    table: str
    id: str = "doc_id"
    text: str = "text"
    label: str = "label"
    weight: str | None = None
    doc: InitVar[str | None] = None

    def __post_init__(self, doc: str | None) -> None:
        if doc is not None:
            object.__setattr__(self, "id", doc)

    def labels(self) -> Labels:
        return Labels(self.table, self.id, self.label, self.weight, "docs table", True)

    def node(self) -> exp.Expr:
        return source_node(self.table)

    def ids(self, db: Database) -> exp.Select:
        self.check(db)
        return templates.select("input/ids.sql", id=_user(self.id), source=self.node())

    def check(self, db: Database) -> None:
        """Refuse a table without the id or text column."""
        columns = db.columns(self.node())
        require(self.table, columns, {"id": self.id, "text": self.text}, {"id": "--id-column"})


Source = Tokens | Table | Docs


def as_source(data: str | Source) -> Source:
    """A source from a name (a tokens table) or as given."""
    return Tokens(data) if isinstance(data, str) else data


def labels_for(source: Source, labels: str | Labels | None) -> Labels:
    """The labels of a training or an evaluation: those given; without a table, the label
    column of a wide table or docs table, else the table ``labels`` (with the columns given)."""
    if isinstance(labels, str):
        return Labels(labels)
    labels = labels or Labels()
    if labels.table is not None:
        return labels
    if isinstance(source, Tokens):
        return replace(labels, table="labels")
    return source.labels()


def _is_text(sql_type: str) -> bool:
    return sql_type.upper().startswith(("VARCHAR", "TEXT", "STRING", "CHAR"))


INTEGERS = {
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "BIGINT",
    "HUGEINT",
    "INT",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
    "UBIGINT",
    "UHUGEINT",
}


def numbers(db: Database, table: str, columns: dict[str, str], name: str, what: str) -> None:
    """Refuse a column of text where ``what`` must be numbers (on engines with column types;
    casting would accept '1.0' and fail on 'abc' with the engine's own message)."""
    if db.dialect.typed_columns and _is_text(columns[name]):
        raise SqlnbError(
            f"column {name!r} of {table!r} holds text ({columns[name]}): {what} must be numbers"
        )


def type_family(sql_type: str) -> str:
    """Types that compare alike: 'integer', 'number', 'text', or the type itself.

    >>> type_family("BIGINT"), type_family("DECIMAL(10,2)"), type_family("VARCHAR")
    ('integer', 'number', 'text')
    """
    t = sql_type.upper()
    if t in INTEGERS:
        return "integer"
    if t in {"FLOAT", "DOUBLE", "REAL"} or t.startswith("DECIMAL"):
        return "number"
    if _is_text(t):
        return "text"
    return t
