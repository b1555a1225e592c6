"""The SQL of sqlnb: ``sql/*.sql`` files parsed once into trees, placeholders bound as nodes.

Every query is written in DuckDB's dialect with ``$name`` placeholders. :func:`render` copies the
parsed tree and replaces each placeholder with a node; it refuses to leave one unbound or to bind
one the file does not have. Names are never pasted into SQL text: :func:`table` and
:func:`col` build quoted identifiers, and plain Python values become literals.

>>> render("catalog/delete.sql", table=table("sqlnb_models"), model="spam").sql("duckdb")
'DELETE FROM "sqlnb_models" WHERE model = \\'spam\\''
>>> table('x"; DROP TABLE y; --').sql("duckdb")
'"x""; DROP TABLE y; --"'
"""

from __future__ import annotations

import functools
import pickle
from pathlib import Path
from typing import TypeAlias

import sqlglot
from sqlglot import exp

from sqlnb import cache
from sqlnb.errors import SqlnbError

Value: TypeAlias = "exp.Expr | str | int | float | bool | None"
Binding: TypeAlias = "Value | Fresh"

SOURCE_DIALECT = "duckdb"


@functools.cache
def sql_dir() -> Path:
    """The folder of ``.sql`` files: packaged in the wheel, or the checkout's ``sql/``."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "_sql", here.parent / "sql"):
        if candidate.is_dir():
            return candidate
    raise SqlnbError("sqlnb's SQL files are missing from the installation")


def names() -> list[str]:
    """Every template, as a path relative to the SQL folder."""
    return sorted(_parsed_all())


def for_dialect(name: str, dialect: str) -> str:
    """The template to use on a dialect: ``a/b.<dialect>.sql`` where the step needs a construct
    that DuckDB's dialect cannot spell for it (written in that dialect), else ``a/b.sql``."""
    override = name.removesuffix(".sql") + f".{dialect}.sql"
    return override if override in _parsed_all() else name


@functools.cache
def parsed(name: str) -> exp.Expr:
    """The template's tree, parsed once. Callers must copy it before changing it. A file named
    ``*.<dialect>.sql`` is written in that dialect."""
    tree = pickle.loads(_entry(name)[0])
    assert isinstance(tree, exp.Expr)
    return tree


def _entry(name: str) -> tuple[bytes, frozenset[str]]:
    """The template's pickled tree and its placeholders' names."""
    entries = _parsed_all()
    if name not in entries:
        raise SqlnbError(f"no SQL file sql/{name}")
    return entries[name]


@functools.cache
def _parsed_all() -> dict[str, tuple[bytes, frozenset[str]]]:
    """Every template parsed and pickled, with its placeholders' names, from the cache on disk
    when sqlnb's files (the SQL folder among them: :func:`cache.source_stamp`) and sqlglot are
    unchanged (parsing them is a tenth of a second of every command otherwise; a command
    unpickles only the ones it uses)."""
    root = sql_dir()
    key = f"templates pickled {cache.source_stamp()} {getattr(sqlglot, '__version__', '')} {root}"
    entries = cache.load(key)
    if not (
        isinstance(entries, dict)
        and all(
            isinstance(e, tuple) and isinstance(e[0], bytes) and isinstance(e[1], frozenset)
            for e in entries.values()
        )
    ):
        entries = {}
        for path in sorted(root.rglob("*.sql")):
            name = path.relative_to(root).as_posix()
            tree = _parse(name)
            found = frozenset(p.name for p in tree.find_all(exp.Placeholder))
            entries[name] = (pickle.dumps(tree, protocol=pickle.HIGHEST_PROTOCOL), found)
        cache.store(key, entries)
    return entries


def _parse(name: str) -> exp.Expr:
    text = (sql_dir() / name).read_text(encoding="utf-8")
    parts = name.split(".")
    dialect = parts[-2] if len(parts) > 2 else SOURCE_DIALECT
    tree = sqlglot.parse_one(text, dialect=dialect)
    if tree is None:  # pragma: no cover - a file of only comments
        raise SqlnbError(f"sql/{name} holds no statement")
    for parameter in list(tree.find_all(exp.Parameter)):  # other dialects read $name so
        parameter.replace(exp.Placeholder(this=parameter.name))
    offset = sqlglot.Dialect.get_or_raise(dialect).INDEX_OFFSET
    for bracket in tree.find_all(exp.Bracket):  # x[i], x[$i]: written in the file's terms
        if not all(isinstance(e, exp.Literal) for e in bracket.expressions):
            bracket.set("offset", offset)  # (else sqlglot shifts a bound x[n + 1] to x[n + 2])
    for node in tree.walk():  # the files' comments document the files, not generated SQL
        node.comments = None
    return tree


def placeholders(name: str) -> frozenset[str]:
    """The names of the template's ``$placeholders``."""
    return _entry(name)[1]


_RENDERED: set[str] = set()  # the templates render() has handed out a tree of


class Fresh:
    """A binding built for one rendering and held by no one else (a generated query's formula
    per class): :func:`render` puts the node itself at its first placeholder and copies it only
    at any other. A plain node is copied at every placeholder (its caller may hold it)."""

    __slots__ = ("node",)

    def __init__(self, node: exp.Expr) -> None:
        self.node = node


def render(name: str, **bindings: Binding) -> exp.Expr:
    """The template with every placeholder replaced by its binding.

    A binding that is a sqlglot node is used as it is: a table node or a query where the
    placeholder stands for a table, an expression elsewhere. Any other value becomes a literal.
    """
    wanted = placeholders(name)
    if set(bindings) != wanted:
        missing = sorted(wanted - set(bindings))
        extra = sorted(set(bindings) - wanted)
        raise SqlnbError(f"sql/{name}: unbound placeholders {missing}, unknown bindings {extra}")
    tree = _fresh(name)
    used: set[int] = set()
    for node in list(tree.find_all(exp.Placeholder)):
        _bind(node, _own(bindings[node.name], used))
    return tree


def _fresh(name: str) -> exp.Expr:
    """A tree of the template that no one else holds: the first in a process unpickled as it
    is (most templates are rendered once a command: unpickling and then copying it cost
    twice), the next ones copies of :func:`parsed`'s."""
    if name in _RENDERED:
        return parsed(name).copy()
    tree = pickle.loads(_entry(name)[0])
    assert isinstance(tree, exp.Expr)
    _RENDERED.add(name)
    return tree


def _own(value: Binding, used: set[int]) -> Value:
    """A node to put into a tree: a query itself while it belongs to no tree (it was built for
    this binding: copying large queries is most of the cost of building SQL), and so a
    :class:`Fresh` node, else a copy (a node used twice or part of another tree; and every other
    small node, which a caller may reuse)."""
    fresh = isinstance(value, Fresh)
    value = value.node if isinstance(value, Fresh) else value
    if not isinstance(value, exp.Expr):
        return value
    if (fresh or isinstance(value, exp.Query)) and value.parent is None and id(value) not in used:
        used.add(id(value))
        return value
    return value.copy()


def select(name: str, **bindings: Binding) -> exp.Select:
    """:func:`render` of a template that is one SELECT, typed as such."""
    tree = render(name, **bindings)
    if not isinstance(tree, exp.Select):
        raise SqlnbError(f"sql/{name} is not a SELECT")
    return tree


def expressions(name: str, **bindings: Binding) -> dict[str, exp.Expr]:
    """The expressions a one-SELECT template selects, by alias, with its placeholders bound
    (bindings it does not use are ignored): the formulas that generated queries repeat for
    every class or feature.

    >>> m2 = expressions("gaussian/m2.sql", x=exp.column("x"), mean=exp.column("m"), weight=2)
    >>> {name: e.sql("duckdb") for name, e in m2.items()}
    {'m2': 'SUM(2 * (x - m) * (x - m))'}
    """
    wanted = placeholders(name)
    tree = render(name, **{k: v for k, v in bindings.items() if k in wanted})
    if not isinstance(tree, exp.Select):
        raise SqlnbError(f"sql/{name} is not a SELECT of expressions")
    return {e.alias_or_name: e.unalias() for e in tree.expressions}


def _bind(node: exp.Placeholder, value: Value) -> None:
    parent = node.parent
    if isinstance(parent, exp.Table) and parent.this is node:
        alias = parent.args.get("alias")
        if isinstance(value, exp.Subquery):  # the query inside, under the template's alias
            value = value.this
        if isinstance(value, exp.Query):  # a derived table needs an alias (PostgreSQL)
            alias = alias or exp.TableAlias(this=exp.to_identifier(node.name))
            parent.replace(exp.Subquery(this=value, alias=alias))
            return
        if isinstance(value, exp.Table):
            if alias is not None:
                value.set("alias", alias)
            parent.replace(value)
            return
        raise SqlnbError(f"placeholder ${node.name} stands for a table: bind a table or a query")
    if isinstance(value, exp.Query):
        node.replace(exp.Subquery(this=value))
    elif isinstance(value, exp.Expr):
        node.replace(value)
    else:
        node.replace(exp.convert(value))


def table(name: str) -> exp.Table:
    """A table or view name as quoted identifiers; dots separate catalog, schema and table.

    >>> table("main.tokens").sql("duckdb")
    '"main"."tokens"'
    """
    parts = name.split(".")
    if len(parts) > 3 or not all(parts):
        raise SqlnbError(f"not a table name: {name!r}")
    *prefix, last = parts
    schema = prefix[-1] if prefix else None
    catalog = prefix[0] if len(prefix) == 2 else None
    return exp.table_(last, db=schema, catalog=catalog, quoted=True)


def col(name: str, table: str | None = None, *, quoted: bool = False) -> exp.Column:
    """A column, ``table.name``: sqlnb's own names as they are, a user's name ``quoted``.

    >>> col("word", "t").sql("duckdb"), col("doc id", quoted=True).sql("duckdb")
    ('t.word', '"doc id"')
    """
    return exp.column(name, table=table, quoted=quoted)


def number(value: float) -> exp.Expr:
    """A number as ``CAST(<literal> AS DOUBLE)``: DOUBLE arithmetic on every engine."""
    double = exp.DataType.Type.DOUBLE  # (the type itself: its name would be parsed each time)
    return exp.cast(exp.convert(float(value)), double)
