"""The sqlglot dialects sqlnb writes some engines' SQL with: sqlglot's own, with what DuckDB's
functions (the dialect of ``sql/``) mean in that engine's names where sqlglot writes something
else. Each is registered with sqlglot under its lower-cased class name (``Dialect.sqlglot``)."""

from __future__ import annotations

from typing import Any, ClassVar

from sqlglot import exp
from sqlglot.dialects.clickhouse import ClickHouse
from sqlglot.dialects.postgres import Postgres
from sqlglot.errors import UnsupportedError


class SqlnbPostgres(Postgres):
    """sqlglot's PostgreSQL, reading JSON held as text (sqlnb_models.params) as DuckDB's
    JSON_EXTRACT_STRING does: PostgreSQL's JSON functions take only json, so the text is cast."""

    class Generator(Postgres.Generator):  # type: ignore[misc,valid-type]  # sqlglot-made
        TRANSFORMS: ClassVar[dict[Any, Any]] = {
            **Postgres.Generator.TRANSFORMS,
            exp.JSONExtractScalar: lambda self, e: _json_text(self, e),
        }


def _json_text(generator: Any, e: exp.JSONExtractScalar) -> str:
    """PostgreSQL's JSON_EXTRACT_PATH_TEXT of a text cast to json (left as it is if json)."""
    text = e.this
    if not (isinstance(text, exp.Cast) and text.to.is_type("json", "jsonb")):
        e = e.copy()
        e.set("this", exp.cast(text.copy(), exp.DataType.build("JSON")))
    written: str = Postgres.Generator.TRANSFORMS[exp.JSONExtractScalar](generator, e)
    return written


class SqlnbClickHouse(ClickHouse):
    """sqlglot's ClickHouse, writing what DuckDB's functions mean in ClickHouse's names: its
    lower() and upper() are ASCII-only (lowerUTF8), its regular expressions are RE2's."""

    class Generator(ClickHouse.Generator):  # type: ignore[misc,valid-type]  # sqlglot-made
        # DuckDB's TIMESTAMP has microseconds, ClickHouse's DateTime seconds
        TYPE_MAPPING: ClassVar[dict[Any, str]] = {
            **ClickHouse.Generator.TYPE_MAPPING,
            exp.DataType.Type.TIMESTAMP: "DateTime64(6)",
            exp.DataType.Type.TIMESTAMPNTZ: "DateTime64(6)",
        }
        TRANSFORMS: ClassVar[dict[Any, Any]] = {
            **ClickHouse.Generator.TRANSFORMS,
            exp.Lower: lambda self, e: self.func("lowerUTF8", e.this),
            exp.Upper: lambda self, e: self.func("upperUTF8", e.this),
            exp.RegexpExtractAll: lambda self, e: self.func("extractAll", e.this, e.expression),
            exp.CurrentTimestamp: lambda self, e: "now64(6)",  # now() has whole seconds
            # The lookup row's aggregates (sql/macros/lookup.sql): BOOL_OR is max (over no
            # row 0, not NULL: the row COALESCEs it); LIST(x ORDER BY k): arrayagg_sql
            exp.LogicalOr: lambda self, e: self.func("max", e.this),
            # DuckDB's list functions, as the SQL functions' tokenizer writes them
            exp.RegexpFullMatch: lambda self, e: self.func("match", e.this, _anchored(e)),
            exp.Length: lambda self, e: self.func("length", e.this),
            exp.GenerateSeries: lambda self, e: self.func(
                "range",
                e.args["start"],
                e.args["end"]
                if e.args.get("is_end_exclusive")
                else exp.Add(this=e.args["end"], expression=exp.convert(1)),
            ),
        }

        def anonymous_sql(self, expression: exp.Anonymous) -> str:
            """DuckDB's LIST_CONCAT, LIST_POSITION and LIST_SUM in ClickHouse's names."""
            name = str(expression.this).upper()
            if name == "LIST_CONCAT":
                return str(self.func("arrayConcat", *expression.expressions))
            if name == "LIST_POSITION":
                return str(self.func("indexOf", *expression.expressions))
            if name == "LIST_SUM":  # NULLs left out, as DuckDB's (ClickHouse refuses them)
                v = exp.to_identifier("v")
                none = exp.func("ifNull", exp.column(v), exp.convert(0))
                return str(self.func("arraySum", exp.Lambda(this=none, expressions=[v]),
                                     *expression.expressions))  # fmt: skip
            return str(super().anonymous_sql(expression))

        def arrayagg_sql(self, expression: exp.ArrayAgg) -> str:
            """DuckDB's LIST(x ORDER BY k) as :func:`_sorted`; another as sqlglot writes it."""
            if isinstance(expression.this, exp.Order):
                return str(self.sql(_sorted(expression.this)))
            return str(super().arrayagg_sql(expression))

        def filter_sql(self, expression: exp.Filter) -> str:
            """LIST(x ORDER BY k) FILTER (WHERE c): :func:`_sorted` of the rows where c."""
            listed = expression.this
            if isinstance(listed, exp.ArrayAgg) and isinstance(listed.this, exp.Order):
                return str(self.sql(_sorted(listed.this, expression.expression.this)))
            return str(super().filter_sql(expression))

        def alter_sql(self, expression: exp.Alter) -> str:
            """ALTER TABLE a RENAME TO b is RENAME TABLE a TO b."""
            actions = expression.args.get("actions") or []
            if len(actions) == 1 and isinstance(actions[0], exp.AlterRename):
                return f"RENAME TABLE {self.sql(expression.this)} TO {self.sql(actions[0].this)}"
            return str(super().alter_sql(expression))


def _anchored(e: exp.Expr) -> exp.Expr:
    """A full match's pattern for a function that finds a match anywhere: ^(?:pattern)$."""
    pattern = e.expression
    if isinstance(pattern, exp.Literal):
        return exp.Literal.string(f"^(?:{pattern.this})$")
    return exp.func("concat", exp.Literal.string("^(?:"), pattern, exp.Literal.string(")$"))


def _sorted(order: exp.Order, where: exp.Expr | None = None) -> exp.Expr:
    """DuckDB's LIST(x ORDER BY k, ...) (ascending; a NULL x kept, as DuckDB keeps it) in
    ClickHouse, whose groupArray has no order: the tuples (k, ..., x) gathered (those where
    ``where``), sorted, and their x.

    >>> import sqlglot
    >>> def written(query: str) -> None:
    ...     print(sqlglot.transpile(query, "duckdb", CLICKHOUSE, pretty=True)[0])
    >>> written("SELECT LIST(x ORDER BY k) FILTER (WHERE c), BOOL_OR(b) FROM t")
    SELECT
      arrayMap(
        pair -> tupleElement(pair, 2),
        arraySort(pair -> (tupleElement(pair, 1)), groupArrayIf((k, x), c))
      ),
      max(b)
    FROM t
    """
    if any(o.args.get("desc") for o in order.expressions):
        raise UnsupportedError("ClickHouse: LIST(... ORDER BY ... DESC) is not written")
    n = len(order.expressions)
    rows = exp.Tuple(expressions=[*(o.this for o in order.expressions), order.this])
    gathered_args: list[exp.Expr] = [rows] if where is None else [rows, where]
    gathered = exp.Anonymous(
        this="groupArray" if where is None else "groupArrayIf", expressions=gathered_args
    )
    pair = exp.to_identifier("pair")
    part = [
        exp.Anonymous(this="tupleElement", expressions=[exp.column(pair), exp.convert(i + 1)])
        for i in range(n + 1)
    ]
    by = exp.Lambda(this=exp.Tuple(expressions=part[:n]), expressions=[pair])
    ordered = exp.func("arraySort", by, gathered)
    return exp.func("arrayMap", exp.Lambda(this=part[n], expressions=[pair]), ordered)


# The names sqlglot registers them under (sqlnb.engine.dialects names them the same, so that
# it need not import this module, and with it sqlglot's two dialects, before they are used)
CLICKHOUSE, POSTGRES = SqlnbClickHouse.__name__.lower(), SqlnbPostgres.__name__.lower()
