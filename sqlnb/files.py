"""Model files: a model's counts, hyperparameters, tokenizer settings and version as Parquet
files, that any engine can load and predict with (and append to).

A model file is a folder with one Parquet file per table: ``sqlnb_models.parquet`` (the catalog
row, whose ``params`` hold the hyperparameters and tokenizer settings), ``sqlnb_classes.parquet``
and the kind's count tables. Derived tables are not exported: importing derives them again from
the counts, on the target engine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
from sqlglot import exp

from sqlnb import templates
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.kinds import kind

CATALOG = "sqlnb_models"
CREATES = {
    "sqlnb_models": "catalog/create_models.sql",
    "sqlnb_classes": "catalog/create_classes.sql",
    "sqlnb_word_counts": "catalog/create_word_counts.sql",
    "sqlnb_gaussian_stats": "catalog/create_gaussian_stats.sql",
    "sqlnb_category_counts": "catalog/create_category_counts.sql",
}
BATCH = 1000


def _tables(kind_name: str) -> tuple[str, ...]:
    return (CATALOG, "sqlnb_classes", *kind(kind_name).counts)


def export_model(db: Database, name: str, path: Path) -> list[Path]:
    """Write model ``name`` to the folder ``path``; returns the files written."""
    from sqlnb.model import load

    model = load(db, name)
    path.mkdir(parents=True, exist_ok=True)
    files = []
    with duckdb.connect() as mem:
        for table in _tables(model.kind_name):
            create = templates.render(CREATES[table])
            mem.execute(create.sql("duckdb"))
            query = (
                exp.select("*")
                .from_(templates.table(table))
                .where(exp.column("model").eq(exp.convert(name)))
            )
            rows = db.fetch(query)
            if rows:
                marks = ", ".join("?" for _ in rows[0])
                mem.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
            target = path / f"{table}.parquet"
            mem.execute(f"COPY {table} TO '{_quote(target)}' (FORMAT parquet)")
            files.append(target)
    return files


def _quote(path: Path) -> str:
    return str(path).replace("'", "''")


def _value(v: Any) -> exp.Expr:
    """A value as a literal; floats through their shortest decimal string, which every engine
    reads back to the same double."""
    if isinstance(v, float):
        return exp.cast(exp.Literal.string(repr(v)), exp.DataType.build("DOUBLE"))
    if v is not None and not isinstance(v, (str, int, bool)):
        return exp.convert(str(v))
    return exp.convert(v)


def import_model(db: Database, path: Path, name: str | None = None) -> str:
    """Load a model file into the database (replacing a model of the same name, atomically);
    returns the model's name."""
    from sqlnb.model import _deletes, _parameters, _refresh_macros, models

    catalog = path / f"{CATALOG}.parquet"
    if not catalog.exists():
        raise SqlnbError(f"{str(path)!r} is not a model file: no {CATALOG}.parquet in it")
    with duckdb.connect() as mem:
        [row] = mem.execute("SELECT * FROM read_parquet(?)", [str(catalog)]).fetchall()
        columns = [d[0] for d in mem.description]
        info = dict(zip(columns, row))
        name = name or info["model"]
        params = json.loads(info["params"])
        the_kind = kind(info["kind"])
        previous = [m["kind"] for m in models(db) if m["model"] == name]
        stale = {"sqlnb_models", "sqlnb_classes", "sqlnb_prior", *the_kind.tables}
        stale |= set(kind(previous[0]).tables) if previous else set()
        statements: list[exp.Expr] = [
            templates.render(n)
            for n in (
                "catalog/create_models.sql",
                "catalog/create_classes.sql",
                "catalog/create_prior.sql",
                *the_kind.creates,
            )
        ]
        statements += _deletes(name, sorted(stale))
        for table in _tables(info["kind"])[1:]:
            file = path / f"{table}.parquet"
            if not file.exists():
                raise SqlnbError(f"model file {str(path)!r} lacks {file.name}")
            relation = mem.execute("SELECT * FROM read_parquet(?)", [str(file)])
            names = [d[0] for d in relation.description]
            rows = relation.fetchall()
            for start in range(0, len(rows), BATCH):
                values = [
                    tuple(_value(name if c == "model" else v) for c, v in zip(names, r))
                    for r in rows[start : start + BATCH]
                ]
                statements.append(
                    exp.insert(
                        exp.values([exp.Tuple(expressions=list(v)) for v in values]),
                        templates.table(table),
                        columns=names,
                    )
                )
    statements += _parameters(name, the_kind, params, info["label_type"], int(info["n_classes"]))
    with db.transaction():
        for statement in statements:
            db.execute(statement)
        the_kind.check(db, name, params)
        _refresh_macros(db)
    return name
