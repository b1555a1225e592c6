"""Files the engine writes or reads in bulk, beside :class:`~sqlnb.engine.Database`: a query's
rows as a Parquet, CSV or JSON file, and the types of a Parquet file's columns."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb
from sqlglot import exp

from sqlnb.engine import scratch
from sqlnb.errors import SqlnbError

if TYPE_CHECKING:
    from sqlnb.engine import Database

FORMATS = {".parquet": "FORMAT parquet", ".csv": "HEADER", ".json": "FORMAT json"}


def in_order(db: Database, query: exp.Select, keys: Sequence[str]) -> exp.Select:
    """The rows of ``query`` in the order of its columns ``keys``, as printed rows and files
    show them: an ORDER BY, or where the engine's is a range shuffle (Spark) the rows gathered
    in one partition and sorted there (``Backend.sorts_one_partition``): the same order. Gathered
    by an exchange (REPARTITION(1)), not a COALESCE(1), which would also run the whole query
    before it, tokenizing and scoring, in one task (10M token rows: 2.1 CPU-s of one core)."""
    rows = exp.select(*(s.alias_or_name for s in query.selects)).from_(query.subquery("p"))
    if not db.backend.sorts_one_partition:
        return rows.order_by(*keys)
    one = exp.Anonymous(this="REPARTITION", expressions=[exp.Literal.number(1)])
    return rows.sort_by(*keys).hint(one, copy=False)


def write_file(db: Database, query: exp.Select, path: Path) -> int:
    """Write the rows of ``query`` to a Parquet, CSV (with a header) or JSON (one object per
    line) file, by its suffix: Parquet by the engine's bulk path (see
    :meth:`Database.write_parquet`), turned into CSV or JSON by DuckDB. Written under a
    temporary name beside ``path`` and renamed into place: never a half-written file. Returns
    the number of rows."""
    options = FORMATS.get(path.suffix.lower())
    if options is None:
        raise SqlnbError(f"{str(path)!r}: a file must end in .parquet, .csv or .json")
    if not path.parent.is_dir():
        raise SqlnbError(f"cannot write {str(path)!r}: no folder {str(path.parent)!r}")
    types = db.columns(query) if db.backend.typed_files else {}  # (Spark's writer: its plan's)
    if types and not all(types.values()):  # SQLite: the storage class of each column's values
        names = [s.alias_or_name for s in query.selects]
        types = {n: db.value_type(query, n) for n in names}
    with scratch.folder() as folder:
        rows = Path(folder) / "rows.parquet"
        db.write_parquet(query, rows, types)
        try:
            with duckdb.connect() as mem, replacing(path) as partial:
                source = f"read_parquet({_literal(rows)})"
                mem.execute(f"COPY (SELECT * FROM {source}) TO {_literal(partial)} ({options})")
                n = mem.execute(f"SELECT COUNT(*) FROM {source}").fetchone()
        except (OSError, duckdb.Error) as error:
            raise SqlnbError(f"cannot write {str(path)!r}: {error}") from None
    return int(n[0]) if n else 0


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A name beside ``path`` to write the file under, renamed to ``path`` when the block
    ends and removed if it fails or is interrupted: never a half-written file."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        yield partial
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def parquet_types(path: Path) -> dict[str, str]:
    """The columns of a Parquet file and their DuckDB types, in order."""
    with duckdb.connect() as mem:
        described = mem.sql(f"SELECT * FROM read_parquet({_literal(path)})")
        return {n: str(t) for n, t in zip(described.columns, described.types)}


def temporary_table(table: exp.Table, types: dict[str, str]) -> exp.Create:
    """CREATE TEMPORARY TABLE ``table`` with these columns (quoted) and DuckDB types."""
    schema = exp.Schema(
        this=table.copy(),
        expressions=[
            exp.ColumnDef(
                this=exp.to_identifier(c, quoted=True), kind=exp.DataType.build(t, dialect="duckdb")
            )
            for c, t in types.items()
        ],
    )
    return exp.Create(
        this=schema, kind="TABLE", properties=exp.Properties(expressions=[exp.TemporaryProperty()])
    )


def _literal(path: Path) -> str:
    return exp.Literal.string(str(path)).sql("duckdb")


def write_rows(
    db: Database,
    output: str,
    types: dict[str, str],
    rows: list[tuple[object, ...]],
    *,
    replace: bool = False,
) -> int:
    """Table ``output`` (columns and DuckDB types: ``types``) of rows computed in Python,
    through a Parquet file that the engine reads by its bulk path. Returns its rows."""
    with scratch.folder() as folder:
        path = Path(folder) / "rows.parquet"
        with duckdb.connect() as local:
            local.execute(f"CREATE TABLE r ({', '.join(f'{n} {t}' for n, t in types.items())})")
            local.executemany(f"INSERT INTO r VALUES ({', '.join('?' for _ in types)})", rows)
            local.execute(f"COPY r TO '{path}' (FORMAT parquet)")
        with db.parquet(path, scratch.name("sqlnb_rows")) as (table, _):
            return db.write_table(output, exp.select(*types).from_(table), replace=replace)
