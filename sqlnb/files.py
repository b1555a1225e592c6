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

from sqlglot import exp

from sqlnb import catalog, macros, templates, training
from sqlnb.catalog import MODELS
from sqlnb.engine import Database
from sqlnb.errors import SqlnbError
from sqlnb.kinds import kind

BATCH = 1000


def export_model(db: Database, name: str, path: Path) -> list[Path]:
    """Write model ``name`` to the folder ``path``; returns the files written."""
    entry = catalog.entry(db, name)
    path.mkdir(parents=True, exist_ok=True)
    files = []
    with Database.connect(":memory:") as mem:
        for table in catalog.counts(entry.kind):
            mem.execute(templates.render(table.create))
            query = (
                exp.select("*").from_(table.node()).where(exp.column("model").eq(exp.convert(name)))
            )
            mem.insert_rows(table.node(), db.fetch(query))
            target = path / f"{table.name}.parquet"
            mem.write_parquet(exp.select("*").from_(table.node()), target)
            files.append(target)
    return files


def _value(v: Any) -> exp.Expr:
    """A value as a literal; floats through their shortest decimal string, which every engine
    reads back to the same double."""
    if isinstance(v, float):
        return exp.cast(exp.Literal.string(repr(v)), exp.DataType.build("DOUBLE"))
    if v is not None and not isinstance(v, (str, int, bool)):
        return exp.convert(str(v))
    return exp.convert(v)


def _read(mem: Database, file: Path) -> tuple[list[str], list[tuple[Any, ...]]]:
    query = exp.select("*").from_(
        exp.Table(this=exp.ReadParquet(expressions=[exp.Literal.string(str(file))]))
    )
    names = list(mem.columns(query))
    return names, mem.fetch(query)


def import_model(db: Database, path: Path, name: str | None = None) -> str:
    """Load a model file into the database (replacing a model of the same name, atomically);
    returns the model's name."""
    file = path / f"{MODELS.name}.parquet"
    if not file.exists():
        raise SqlnbError(f"{str(path)!r} is not a model file: no {MODELS.name}.parquet in it")
    with Database.connect(":memory:") as mem:
        columns, [row] = _read(mem, file)
        info = dict(zip(columns, row))
        name = name or info["model"]
        params = json.loads(info["params"])
        the_kind = kind(info["kind"])
        statements = catalog.replacing(db, name, the_kind)
        for table in catalog.counts(the_kind)[1:]:
            file = path / f"{table.name}.parquet"
            if not file.exists():
                raise SqlnbError(f"model file {str(path)!r} lacks {file.name}")
            names, rows = _read(mem, file)
            for start in range(0, len(rows), BATCH):
                values = [
                    tuple(_value(name if c == "model" else v) for c, v in zip(names, r))
                    for r in rows[start : start + BATCH]
                ]
                statements.append(
                    exp.insert(
                        exp.values([exp.Tuple(expressions=list(v)) for v in values]),
                        table.node(),
                        columns=names,
                    )
                )
    statements += training.parameters(
        name, the_kind, params, info["label_type"], int(info["n_classes"])
    )
    with db.transaction():
        for statement in statements:
            db.execute(statement)
        the_kind.check(db, name, params)
        macros.refresh(db)
    return name
