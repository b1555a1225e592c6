"""Where data comes from: a tokens source and a labels source under the user's names.

Each resolves against a database to a query with sqlnb's column names (``doc_id, word, count``
and ``doc_id, label``), after checking that the table and its columns exist. A source is a
table or view name (dots separate schema and table) or, on DuckDB, a Parquet path or glob.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from sqlnb import templates
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError


def source_node(name: str) -> exp.Table:
    """A table, view or Parquet file (``*.parquet``, globs allowed) as a FROM item."""
    if name.endswith(".parquet") or ("*" in name and ".parquet" in name):
        return exp.Table(this=exp.ReadParquet(expressions=[exp.Literal.string(name)]))
    return templates.table(name)


def _require(db: Database, name: str, columns: dict[str, str], wanted: dict[str, str]) -> None:
    for role, column_name in wanted.items():
        if column_name not in columns:
            have = ", ".join(columns) or "none"
            raise SqlnbError(
                f"table {name!r} has no {role} column {column_name!r} (its columns: {have})"
            )


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
        _require(db, self.table, columns, {"document id": self.doc, "word": self.word})
        name = self._count_column(columns)
        if name is None:
            return self.render(exp.convert(1))
        _require(db, self.table, columns, {"count": name})
        if db.dialect.name != "sqlite" and _is_text(columns[name]):
            raise SqlnbError(
                f"column {name!r} of {self.table!r} holds text ({columns[name]}): "
                "counts must be numbers"
            )
        return self.render(templates.column(name))

    def integer_counts(self, db: Database) -> bool:
        """Whether the counts are integers (a column of an integer type, or 1 for every row):
        then none can be NaN or infinite. False where the engine has no column types."""
        columns = db.columns(source_node(self.table))
        name = self._count_column(columns)
        return name is None or type_family(columns.get(name, "")) == "integer"

    def render(self, count: exp.Expr, source: exp.Expr | None = None) -> exp.Select:
        """The tokens query, unchecked, with ``count`` (a column or 1) from ``source``."""
        tree = templates.render(
            "input/tokens.sql",
            doc=templates.column(self.doc),
            word=templates.column(self.word),
            count=count,
            source=source or source_node(self.table),
        )
        assert isinstance(tree, exp.Select)
        return tree


@dataclass(frozen=True)
class Labels:
    """A labels table: one row per document with its label (text, integer, boolean, ...)."""

    table: str = "labels"
    doc: str = "doc_id"
    label: str = "label"
    weight: str | None = None

    def query(self, db: Database) -> exp.Select:
        columns = db.columns(source_node(self.table))
        _require(db, self.table, columns, {"document id": self.doc, "label": self.label})
        if self.weight is not None:
            _require(db, self.table, columns, {"weight": self.weight})
        tree = templates.render(
            "input/labels.sql",
            doc=templates.column(self.doc),
            label=templates.column(self.label),
            weight=exp.convert(1) if self.weight is None else templates.column(self.weight),
            source=source_node(self.table),
        )
        assert isinstance(tree, exp.Select)
        return tree

    def label_type(self, db: Database) -> str:
        return db.value_type(self.query(db), "label")


def _is_text(sql_type: str) -> bool:
    return sql_type.upper().startswith(("VARCHAR", "TEXT", "STRING", "CHAR"))


def type_family(sql_type: str) -> str:
    """Types that compare alike: 'integer', 'float', 'text', 'boolean', or the type itself."""
    t = sql_type.upper()
    if t in {
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
    }:
        return "integer"
    if t in {"FLOAT", "DOUBLE", "REAL"} or t.startswith("DECIMAL"):
        return "number"
    if _is_text(t):
        return "text"
    return t


GAUSSIAN, CATEGORICAL = "gaussian", "categorical"


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
        return Labels(self.table, self.id, self.label, self.weight)

    def column_types(self, db: Database) -> dict[str, str]:
        columns = db.columns(source_node(self.table))
        _require(db, self.table, columns, {"id": self.id})
        if db.dialect.name == "sqlite":  # no declared types: the storage class of the values
            query = exp.select("*").from_(source_node(self.table))
            columns = {c: db.value_type(query, c) for c in columns}
        return columns

    def feature_types(self, db: Database, default: str | None) -> list[tuple[str, str]]:
        """Each feature with its likelihood: the override, else ``default`` (a kind that has
        one likelihood), else by column type: floating/decimal Gaussian; text, boolean and
        integer categorical."""
        columns = self.column_types(db)
        skip = {self.id, self.label, self.weight}
        names = list(self.features) if self.features else [c for c in columns if c not in skip]
        for name in (*names, *self.gaussian, *self.categorical):
            _require(db, self.table, columns, {"feature": name})
            if name in skip:
                raise SqlnbError(
                    f"column {name!r} of {self.table!r} cannot be a feature: it "
                    "is the id, the label or the weight"
                )
        both = set(self.gaussian) & set(self.categorical)
        if both:
            raise SqlnbError(f"feature {sorted(both)[0]!r} is both --gaussian and --categorical")
        names += [n for n in (*self.gaussian, *self.categorical) if n not in names]
        if not names:
            raise SqlnbError(f"table {self.table!r} has no feature columns")
        typed = []
        for name in names:
            family = type_family(columns[name])
            if name in self.gaussian or (name not in self.categorical and default == GAUSSIAN):
                if family not in ("integer", "number"):
                    raise SqlnbError(
                        f"column {name!r} of {self.table!r} is {columns[name]}: a Gaussian "
                        "feature must be numeric"
                    )
                typed.append((name, GAUSSIAN))
            elif name in self.categorical or default == CATEGORICAL:
                typed.append((name, CATEGORICAL))
            elif family == "number":
                typed.append((name, GAUSSIAN))
            elif family in ("integer", "text", "BOOLEAN") or columns[name].startswith("ENUM"):
                typed.append((name, CATEGORICAL))
            else:
                raise SqlnbError(
                    f"column {name!r} of {self.table!r} is {columns[name]}: name it with "
                    "--gaussian or --categorical"
                )
        return typed

    def values(self, db: Database, features: list[tuple[str, str]], likelihood: str) -> exp.Select:
        """The features of one likelihood in long form (doc_id, feature, value)."""
        columns = db.columns(source_node(self.table))
        template = (
            "input/numeric_feature.sql"
            if likelihood == GAUSSIAN
            else ("input/category_feature.sql")
        )
        parts = []
        for name, kind in features:
            if kind != likelihood:
                continue
            _require(db, self.table, columns, {"id": self.id, "feature": name})
            parts.append(
                templates.render(
                    template,
                    id=templates.column(self.id),
                    feature=name,
                    column=templates.column(name),
                    source=source_node(self.table),
                )
            )
        query = parts[0]
        for part in parts[1:]:
            query = exp.union(query, part, distinct=False)
        assert isinstance(query, exp.Select | exp.Union)
        return query  # type: ignore[return-value]

    def ids(self, db: Database) -> exp.Select:
        columns = db.columns(source_node(self.table))
        _require(db, self.table, columns, {"id": self.id})
        tree = templates.render(
            "input/ids.sql", id=templates.column(self.id), source=source_node(self.table)
        )
        assert isinstance(tree, exp.Select)
        return tree
