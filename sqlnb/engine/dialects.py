"""What differs between engines, as data: one :class:`Dialect` per engine, and the rewrites of
the statements an engine lacks (Spark's ``DELETE``: a model's partition overwritten with no
rows, or the table rewritten), next to each other.

>>> gone = exp.delete("t", where="model = 'm'")
>>> gone.meta["columns"] = ("a", "b")  # (catalog.deletes: the table's columns after model)
>>> print(" ".join(script([gone], "spark").split()))
INSERT OVERWRITE TABLE t PARTITION(model = 'm') ( a, b ) SELECT NULL AS a, NULL AS b WHERE FALSE;
>>> print(script([exp.delete("t", "id = 3")], "spark"))  # doctest: +NORMALIZE_WHITESPACE +ELLIPSIS
CREATE TABLE t__sqlnb_keep_... AS SELECT * FROM t WHERE NOT id = 3;
DROP TABLE IF EXISTS t;
ALTER TABLE t__sqlnb_keep_... RENAME TO t;
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from sqlnb.engine import scratch
from sqlnb.errors import SqlnbError


@dataclass(frozen=True)
class Dialect:
    """What one engine needs that the shared SQL cannot say."""

    name: str
    # The sqlglot dialect this engine's SQL is written in (see :attr:`sqlglot`)
    spelling: str
    begin: str | None = "BEGIN TRANSACTION"
    commit: str | None = "COMMIT"
    rollback: str | None = "ROLLBACK"
    # Begins a transaction whose reads all see one committed state (for export), where the
    # engine has one.
    snapshot: str | None = "BEGIN TRANSACTION"
    # False where DELETE is not supported on plain tables (Spark's file-based tables): a
    # DELETE becomes CREATE TABLE AS the rows to keep, DROP, RENAME.
    delete: bool = True
    # False where UPDATE ... FROM is not supported (Spark's file tables; ClickHouse, whose
    # ALTER UPDATE takes no join): classifying in place rewrites the table.
    update: bool = True
    # A function that fails the running query with a message, where the engine has one (the
    # message found in a wrapped driver error too: sqlnb.engine.messages.one_line).
    fail: str | None = None
    # False where CREATE VIEW has no IF NOT EXISTS: there a view is created OR REPLACE.
    view_if_not_exists: bool = True
    # A hash function, where the engine gives a scan one thread per block of rows (DuckDB: a
    # row group, 122,880 rows): a costly step over a small table (tokenizing) then reads it
    # as one scan per thread, each taking the rows whose key hashes to it.
    split_hash: str | None = None
    # True where the planner needs fresh statistics and does not gather them itself soon
    # enough (PostgreSQL's autovacuum runs later, and never on temporary tables; SQLite
    # gathers none, and guesses that 10 rows match a model's name: its SQL functions then
    # scanned the model's vocabulary for each text, 24 ms a call, 1.5 ms with statistics): a
    # table is ANALYZEd after each statement that fills it, in the same transaction.
    analyze: bool = False
    # The tables not ANALYZEd where ``analyze``: read only by their model's key through its
    # index (the catalog and version rows, the functions' record), whatever their size.
    unanalyzed: tuple[str, ...] = ()
    # True where a table's rows of one model are worth an index (the engine reads a model's
    # rows by it, and deletes them by it): a table with a model column gets one on creation.
    # Not SQLite: its planner, without costs, then looks up the model's rows by that index for
    # every token instead of building an automatic index on the join's columns (prediction at
    # 80k token rows took 35 s instead of 0.06 s, benchmarks/engines.py).
    index_model: bool = False
    # The index of the tables the SQL functions read by word (ModelTable.lookup), where they
    # look a text's words up one by one (without it each call scans the model's whole
    # vocabulary: a 312,642-word model, 26 ms a text): "btree" on (model, word) (SQLite's), or
    # "hash" on the key model || ' ' || word (PostgreSQL's: one bucket probe a word, where the
    # btree descends three levels; the functions took 1.6 times as long with it,
    # benchmarks/functions.py), which the functions' joins then name (lookup_key).
    lookup: str | None = None
    # True where regular expressions backtrack (Java's): a token pattern that repeats a
    # repetition ambiguously could take exponential time there, and is refused.
    backtracking_regex: bool = False
    # True where sqlnb's tables are partitioned by model (Spark's file tables: deleting a
    # model's rows overwrites its partition with none instead of rewriting the table without
    # them; no ALTER TABLE ... DROP PARTITION, which a catalog that does not keep partitions,
    # Spark's in-memory one for a table it did not create, refuses).
    partition_by_model: bool = False
    # False where a column has no declared type (SQLite): a value's type is its storage class.
    typed_columns: bool = True
    # How a multi-label model's labels are one value (classify, the SQL functions:
    # sqlnb.multilabel.list_type): "array", the engine's list type, aggregated in class order
    # (sql/multilabel/classified*.sql); "json", the text of a JSON array (SQLite, which has no
    # list type); None where sqlnb does not aggregate them in order: refused.
    label_lists: str | None = "array"
    # True where the functions sqlnb's SQL calls (its tokenizer's) are registered from Python
    # on each connection (SQLite has no regular expressions and no SQL-defined functions).
    python_functions: bool = False
    # The default token pattern in the engine's regular-expression syntax, where it cannot
    # read the default's (\pL, \pN): PostgreSQL's POSIX classes.
    default_pattern: str | None = None
    # True where the regular expressions have no \pL, \pM, \pN (PostgreSQL's): a token
    # pattern's are written out as the characters of sqlnb's Unicode table (sqlnb/unicode.py).
    expands_classes: bool = False
    # True where LOWER applies Unicode's full lowercase mapping (İ to i + U+0307, a final Σ to
    # ς: Java's, ClickHouse's lowerUTF8): those two are mapped first, as every other engine's.
    full_lower: bool = False
    # The class of the ad-hoc SQL functions sqlnb keeps in the database (sqlnb_classify, ...),
    # "module:Class" (sqlnb.functions.forms.of): DuckDB's macros, PostgreSQL's SQL functions
    # and PL/pgSQL table function, Spark's and ClickHouse's SQL functions; None: it keeps none.
    functions: str | None = None
    # True where the engine checks a function's tables when it is created: the functions
    # wait until the database has a text model.
    functions_check_tables: bool = False
    # True where a table function sqlnb_predict(model, tokens_table) exists.
    table_function: bool = False
    # True where HASH(value) is the stable hash that tune's folds are made of (DuckDB's).
    folds: bool = False
    # True where a query reads a Parquet file by its path (an input named *.parquet).
    reads_parquet: bool = False
    # True where a prediction from raw text first tokenizes it into a temporary table: SQLite
    # runs its Python tokenizer again wherever the tokens relation is read.
    tokenizes_first: bool = False
    # True where a GROUP BY gathers values into a list that an expression sums (DuckDB's
    # LIST_SUM, ClickHouse's arraySum, Spark's AGGREGATE: sql/predict/list_sum*.sql): predict
    # finds each document's class and its posterior, and evaluate its outcomes, in one
    # aggregation (sql/predict/decided.sql, sql/evaluate/decided.sql), without window
    # functions; elsewhere (PostgreSQL, SQLite) from the posterior's windows
    # (sql/predict/posterior.sql).
    lists: bool = False
    # True where the rows form of any model walks a hierarchical model's tree read from the
    # catalog (sql/labels/tree.sql's STRING_SPLIT, ARRAY_SLICE and UNNEST are spelled: Spark's
    # SQL functions); elsewhere that form refuses the model (PostgreSQL's functions walk it in
    # their branch per tree, DuckDB's and ClickHouse's in the list form).
    walks_catalog: bool = False
    # True where a temporary table of a query is a view that every read computes again
    # (Spark's CREATE TEMPORARY VIEW): it is made by CACHE TABLE instead, computed once
    # (evaluate reads its outcomes in four queries, one of them three times: 98 Spark jobs).
    cached_temporary: bool = False
    # Session settings a printed script sets first (ClickHouse's, which sqlnb's own client
    # sets on every query).
    settings: tuple[str, ...] = ()
    ordered_inserts: bool = False  # an INSERT's ORDER BY kept: see statements_for

    @property
    def sqlglot(self) -> str:
        """The name of the sqlglot dialect this engine's SQL is written in. sqlnb's own
        (:mod:`sqlnb.engine.spellings`) are registered with sqlglot when first asked for: a
        command on DuckDB or SQLite does not import sqlglot's PostgreSQL and ClickHouse
        dialects (about 0.02 s of CPU)."""
        if self.spelling in (POSTGRES, CLICKHOUSE):
            from sqlnb.engine import spellings  # noqa: F401  (registers them)
        return self.spelling


# sqlnb's spellings of PostgreSQL and ClickHouse (sqlnb.engine.spellings' classes, registered
# with sqlglot under their lower-cased names)
POSTGRES, CLICKHOUSE = "sqlnbpostgres", "sqlnbclickhouse"

# Every ClickHouse query's settings (sqlnb's client sets them on each query; a printed script
# sets them first): an outer join's missing side is NULL (not 0 or ''); a column's name means
# the column, not an alias of the same name elsewhere in the SELECT; a table created without
# ORDER BY is a MergeTree in insertion order.
CLICKHOUSE_SETTINGS = {
    "join_use_nulls": 1,
    "prefer_column_name_to_alias": 1,
    "create_table_empty_primary_key_by_default": 1,
}


DIALECTS: dict[str, Dialect] = {
    d.name: d
    for d in (
        Dialect(
            "duckdb",
            "duckdb",
            fail="error",
            ordered_inserts=True,
            split_hash="HASH",
            functions="sqlnb.functions.engines:DuckDBMacros",
            table_function=True,
            folds=True,
            reads_parquet=True,
            lists=True,
        ),
        Dialect(
            "sqlite",
            "sqlite",
            begin="BEGIN",
            snapshot="BEGIN",
            lookup="btree",
            analyze=True,
            typed_columns=False,
            label_lists="json",
            python_functions=True,
            tokenizes_first=True,
        ),
        # (Each transaction first sets a safe search_path and takes a lock per schema:
        # PostgresBackend.opening.)
        Dialect(
            "postgres",
            POSTGRES,
            begin="BEGIN",
            snapshot="BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
            view_if_not_exists=False,
            analyze=True,
            unanalyzed=("sqlnb_models", "sqlnb_versions", "sqlnb_functions"),
            index_model=True,
            lookup="hash",
            expands_classes=True,
            functions="sqlnb.functions.engines:PostgresFunctions",
            functions_check_tables=True,
            table_function=True,
        ),
        Dialect(
            "spark",
            "spark",
            begin=None,
            commit=None,
            rollback=None,
            snapshot=None,
            delete=False,
            update=False,
            fail="raise_error",
            backtracking_regex=True,
            full_lower=True,
            partition_by_model=True,
            functions="sqlnb.functions.engines:SparkFunctions",
            walks_catalog=True,
            functions_check_tables=True,
            reads_parquet=True,
            lists=True,
            cached_temporary=True,
        ),
        # No transactions; DELETE is ClickHouse's lightweight delete (synchronous here).
        Dialect(
            "clickhouse",
            CLICKHOUSE,
            begin=None,
            commit=None,
            rollback=None,
            snapshot=None,
            update=False,
            settings=tuple(f"SET {k} = {v}" for k, v in CLICKHOUSE_SETTINGS.items()),
            full_lower=True,
            functions="sqlnb.functions.engines:ClickHouseFunctions",
            lists=True,
        ),
        Dialect("bigquery", "bigquery", commit="COMMIT TRANSACTION"),
        # POSIX extended regular expressions: no \pL, no (?:...)
        Dialect(
            "snowflake",
            "snowflake",
            default_pattern=r"[[:alpha:][:digit:]]+('[[:alpha:][:digit:]]+)*",
        ),
        Dialect(
            "trino",
            "trino",
            begin="START TRANSACTION",
            view_if_not_exists=False,
            default_pattern=r"[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*",  # Java's syntax
        ),
    )
}

# Engine type names, in DuckDB's spelling (label types are stored that way).
TYPE_NAMES = {
    "int2": "SMALLINT",
    "int4": "INTEGER",
    "int8": "BIGINT",
    "float4": "FLOAT",
    "float8": "DOUBLE",
    "numeric": "DECIMAL",
    "text": "VARCHAR",
    "varchar": "VARCHAR",
    "bpchar": "VARCHAR",
    "bool": "BOOLEAN",
    "uuid": "UUID",
    "date": "DATE",
    "timestamp": "TIMESTAMP",
    "tinyint": "TINYINT",
    "smallint": "SMALLINT",
    "int": "INTEGER",
    "bigint": "BIGINT",
    "float": "FLOAT",
    "double": "DOUBLE",
    "string": "VARCHAR",
    "boolean": "BOOLEAN",
}


def duckdb_type(name: str) -> str:
    """An engine's type name in DuckDB's spelling.

    >>> duckdb_type("int8"), duckdb_type("numeric(10,2)"), duckdb_type("decimal(10,2)")
    ('BIGINT', 'DECIMAL', 'DECIMAL(10,2)')
    """
    base = re.sub(r"\(.*\)$", "", name.strip().lower())
    if base == "decimal":
        return name.upper()
    return TYPE_NAMES.get(base, name.upper())


def dialect(name: str) -> Dialect:
    """The dialect called ``name``; an unknown name is a clear error."""
    try:
        return DIALECTS[name]
    except KeyError:
        known = ", ".join(DIALECTS)
        raise SqlnbError(f"unknown dialect {name!r}: choose one of {known}") from None


def statements_for(tree: exp.Expr, d: Dialect) -> list[exp.Expr]:
    """A statement as the dialect runs it: one (CREATE VIEW IF NOT EXISTS becomes CREATE OR
    REPLACE VIEW where the dialect lacks it), or, where it lacks DELETE, four; followed by an
    ANALYZE of the table it fills, or by the index of the table it creates, where the dialect
    wants them. An INSERT's ORDER BY (without LIMIT) is kept only where the engine stores
    rows in that order and the sort is worth it (``ordered_inserts``, DuckDB: the word counts
    by word, then pivoted by word in cache order: -0.45 CPU-s at 10M token rows, K = 20);
    elsewhere it is dropped (a sort, on Spark a job, for nothing)."""
    view = isinstance(tree, exp.Create) and tree.kind == "VIEW" and tree.args.get("exists")
    if view and not d.view_if_not_exists:  # CREATE OR REPLACE VIEW instead
        replaced = tree.copy()
        replaced.set("exists", False)
        replaced.set("replace", True)
        return [replaced]
    if isinstance(tree, exp.Insert) and not d.ordered_inserts:
        _unordered(tree.expression)
    if d.cached_temporary and _temporary_of_query(tree):
        return [exp.Cache(this=tree.this.copy(), expression=tree.expression.copy())]
    if d.partition_by_model:
        partitioned = by_model(tree)
        if partitioned is not None:
            return [partitioned]
    filled = _filled(tree)
    if filled is not None and d.analyze and filled.name not in d.unanalyzed:
        return [tree, exp.Analyze(tables=[filled.copy()])]
    if isinstance(tree, exp.Create) and tree.kind == "TABLE" and d.index_model:
        schema = tree.this
        columns = [c.name for c in schema.expressions] if isinstance(schema, exp.Schema) else []
        if "model" in columns:
            return [tree, _model_index(schema.this)]
    if isinstance(tree, exp.Delete) and not d.delete:
        target, where = tree.this, tree.args.get("where")
        gone = where.this if where is not None else exp.true()  # no WHERE: every row
        keep = exp.select("*").from_(target.copy()).where(exp.not_(gone))
        staging = exp.to_table(scratch.fresh(f"{target.name}__sqlnb_keep"))
        return [*replace_table(target, keep, staging)]
    return [tree]


def _unordered(query: exp.Expr | None) -> None:
    """An INSERT's query without its ORDER BY (a table's rows have no order), and so the query
    it wraps as ``SELECT ... FROM (query) AS o`` (a Spark partition's overwrite) and each side
    of a ``UNION ALL`` it reads (a keeping overwrite: sqlnb.keeping; on Spark the word counts'
    ORDER BY was a range exchange, its sampling job and a second final aggregation); one with a
    LIMIT keeps it. Changed in place: a statement runs once, as built."""
    while isinstance(query, (exp.Select, exp.SetOperation)):
        if query.args.get("order") and not query.args.get("limit"):
            query.set("order", None)
        if isinstance(query, exp.SetOperation):
            _unordered(query.this)
            query = query.expression
            continue
        source = query.args.get("from_")
        query = source.this.this if source and isinstance(source.this, exp.Subquery) else None


def _temporary_of_query(tree: exp.Expr) -> bool:
    """True for a CREATE TEMPORARY TABLE ... AS a query."""
    if not isinstance(tree, exp.Create) or tree.kind != "TABLE":
        return False
    properties = tree.args.get("properties")
    marks = properties.expressions if properties is not None else []
    temporary = any(isinstance(m, exp.TemporaryProperty) for m in marks)
    return temporary and isinstance(tree.expression, exp.Query)


def by_model(tree: exp.Expr) -> exp.Expr | None:
    """Where tables are partitioned by model: the CREATE of one of sqlnb's tables (a column
    ``model``) with its partitions, a DELETE of one model's rows (whose table's other columns
    are known: ``meta["columns"]``, see catalog.deletes) as an overwrite of its partition with
    no rows (never ``ALTER TABLE ... DROP PARTITION``, which a catalog that does not keep
    partitions refuses), a DELETE of every row as a TRUNCATE; None for any other statement."""
    if isinstance(tree, exp.Create) and tree.kind == "TABLE" and isinstance(tree.this, exp.Schema):
        if "model" not in [c.name for c in tree.this.expressions]:
            return None
        partitioned = tree.copy()
        properties = [
            exp.FileFormatProperty(this=exp.Var(this="PARQUET")),
            exp.PartitionedByProperty(this=exp.Schema(expressions=[exp.to_identifier("model")])),
        ]
        partitioned.set("properties", exp.Properties(expressions=properties))
        return partitioned
    if not isinstance(tree, exp.Delete):
        return None
    where = tree.args.get("where")
    if where is None:
        return exp.TruncateTable(expressions=[tree.this.copy()])
    condition, columns = where.this, tree.meta.get("columns")
    if (
        isinstance(condition, exp.EQ)
        and isinstance(condition.this, exp.Column)
        and condition.this.name == "model"
        and isinstance(condition.expression, exp.Literal)
    ):
        if not columns:  # every table of sqlnb's declares them (ModelTable.columns)
            raise SqlnbError(f"internal: the columns of {tree.this.name} are not known")
        target = tree.this.copy()
        target.set("partition", exp.Partition(expressions=[condition.copy()]))
        nothing = exp.select(*(exp.null().as_(c) for c in columns)).where(exp.false())
        into = exp.Schema(this=target, expressions=[exp.to_identifier(c) for c in columns])
        return exp.Insert(this=into, expression=nothing, overwrite=True)
    return None


def _filled(tree: exp.Expr) -> exp.Table | None:
    """The table an INSERT or a CREATE TABLE AS fills, if ``tree`` is one."""
    if isinstance(tree, exp.Insert) or (
        isinstance(tree, exp.Create) and tree.kind == "TABLE" and tree.expression is not None
    ):
        target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
        return target if isinstance(target, exp.Table) else None
    return None


def _model_index(table: exp.Table) -> exp.Create:
    """CREATE INDEX IF NOT EXISTS <table>_model ON <table> (model)."""
    return index(table, "model", ("model",))


def lookup_key(columns: Sequence[exp.Expr]) -> exp.Expr:
    """c1 || ' ' || c2 ...: the key a hash lookup index is on (Dialect.lookup "hash"). Not one
    to one ('a b' || ' ' || 'c' is 'a' || ' ' || 'b c'), so a join by it also says each
    column's equality."""
    key = columns[0]
    for column in columns[1:]:
        key = exp.DPipe(this=exp.DPipe(this=key, expression=exp.convert(" ")), expression=column)
    return key


def index(
    table: exp.Table, name: str, columns: Sequence[str], *, hashed: bool = False
) -> exp.Create:
    """CREATE INDEX IF NOT EXISTS <table>_<name> ON <table> (<columns>), or ``hashed``, a hash
    index on their :func:`lookup_key`."""
    if hashed:
        key = exp.Paren(this=lookup_key([exp.column(c) for c in columns]))
        params = exp.IndexParameters(using=exp.var("HASH"), columns=[exp.Ordered(this=key)])
    else:
        params = exp.IndexParameters(columns=[exp.column(c) for c in columns])
    return exp.Create(
        this=exp.Index(
            this=exp.to_identifier(f"{table.name}_{name}"), table=table.copy(), params=params
        ),
        kind="INDEX",
        exists=True,
    )


def replace_table(target: exp.Table, query: exp.Query, staging: exp.Table) -> list[exp.Expr]:
    """Statements that replace table ``target`` by the rows of ``query`` where the engine can
    neither delete nor update rows: create ``staging`` (a new name, :func:`scratch.fresh`: an
    existing table of that name is an error, never dropped), drop the target, rename."""
    return [
        exp.Create(this=staging.copy(), kind="TABLE", expression=query),
        exp.Drop(kind="TABLE", exists=True, tables=[target.copy()]),
        exp.Alter(this=staging.copy(), kind="TABLE", actions=[exp.AlterRename(this=target.copy())]),
    ]


def to_sql(tree: exp.Expr, dialect_name: str, *, pretty: bool = False, copy: bool = True) -> str:
    """The tree as SQL text of a dialect; constructs the dialect cannot express raise. Without
    ``copy`` the generator may change the tree (for a statement that is run once)."""
    try:
        return tree.sql(
            dialect=dialect_name,
            unsupported_level=sqlglot.ErrorLevel.RAISE,
            pretty=pretty,
            copy=copy,
        )
    except sqlglot.errors.UnsupportedError as error:
        raise SqlnbError(f"cannot write this query for {dialect_name}: {error}") from None


def script(statements: Sequence[exp.Expr | str], dialect_name: str) -> str:
    """Statements as one script of a dialect, each ended by ``;``, after the session settings
    the dialect needs (ClickHouse's)."""
    d = dialect(dialect_name)
    parts: list[str] = list(d.settings)
    for s in statements:
        if isinstance(s, str):
            parts.append(s)
        else:
            parts += [to_sql(t, d.sqlglot, pretty=True) for t in statements_for(s, d)]
    return "".join(f"{p};\n" for p in parts)
