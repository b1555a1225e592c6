"""Model files: a model's counts, hyperparameters, tokenizer settings and version as Parquet
files, that any engine can load and predict with (and append to).

A model file is a folder with one Parquet file per table: ``sqlnb_models.parquet`` (the catalog
row, whose ``params`` hold the hyperparameters and tokenizer settings), ``sqlnb_classes.parquet``
and the kind's count tables. Derived tables are not exported: importing derives them again from
the counts, on the target engine.

Both directions use the engine's bulk path (:meth:`Database.write_parquet`,
:meth:`Database.parquet`), never the rows in Python. A folder is written under a temporary name
beside the target and renamed into place when complete: an export that fails or is interrupted
leaves nothing, and one that replaces an earlier export of a model replaces it whole.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

from sqlglot import exp

from sqlnb import catalog, modelfile, training, versions
from sqlnb.catalog import CLASSES, MODELS
from sqlnb.engine import Database, scratch
from sqlnb.errors import SqlnbError
from sqlnb.multilabel import counting
from sqlnb.tokenizer import Tokenizer

STAGED = scratch.name("sqlnb_import")  # the temporary relations files are read into


def export_model(
    db: Database, name: str, path: Path, *, replace: bool = False, version: int | None = None
) -> list[Path]:
    """Write model ``name`` (its kept ``version``, default the current one) to the folder
    ``path`` (an existing model file there only with ``replace``); returns the files written.
    The files hold one committed version of the model: they are read in one snapshot where
    the engine has them, and elsewhere an export during which the model was retrained is
    refused."""
    given, path = str(path), path.resolve()
    if path == Path.cwd() or path in Path.cwd().parents:
        raise SqlnbError(f"{given!r} is the current folder or holds it: choose a new folder")
    if path.exists() and not _model_file(path):
        raise SqlnbError(f"{given!r} exists and is not a model file: choose a new folder")
    if path.exists() and not replace:
        raise SqlnbError(f"{given!r} exists: give --replace to overwrite it")
    folder = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:  # (one try from the folder's making on: a Ctrl-C just after it leaves no folder)
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch.sweep(path.parent, f".{path.name}.", (".partial", ".old"))
        shutil.rmtree(folder, ignore_errors=True)  # left by a killed export of this pid
        folder.mkdir()
        with db.snapshot():
            where = versions.reading(db, name, version)  # the key its rows are under
            entry = catalog.entry(db, where)
            for table in catalog.counts(entry.kind):
                types = table.types()
                named = [exp.convert(name).as_("model") if c == "model" else exp.column(c)
                    for c in types]  # fmt: skip
                query = (
                    exp.select(*named)
                    .from_(table.node())
                    .where(exp.column("model").eq(exp.convert(where)))
                )
                db.write_parquet(query, folder / f"{table.name}.parquet", types)
            if not catalog.is_current(db, entry):  # an engine without snapshots
                raise SqlnbError(
                    f"model {name!r} was retrained while it was exported: nothing was "
                    "written; export it again"
                )
        written = sorted(p.name for p in folder.iterdir())
        db.committing()
        _publish(folder, path)
    except OSError as error:
        raise SqlnbError(f"cannot write {given!r}: {error.strerror or error}") from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return [path / f for f in written]


def _model_file(path: Path) -> bool:
    """Whether ``path`` is an empty folder or a model file (only sqlnb_*.parquet files): the
    folders an export may replace whole."""
    if not path.is_dir():
        return False
    return all(
        p.is_file() and p.name.startswith("sqlnb_") and p.suffix == ".parquet"
        for p in path.iterdir()
    )


def _publish(folder: Path, path: Path) -> None:
    """Rename a complete folder to ``path``; an existing one is moved aside first and removed
    after, so that ``path`` is at every moment the old model file or the new one."""
    if not path.exists():
        folder.rename(path)
        return
    old = path.with_name(f".{path.name}.{os.getpid()}.old")
    shutil.rmtree(old, ignore_errors=True)
    path.rename(old)
    try:
        folder.rename(path)
    except OSError:
        old.rename(path)
        raise
    shutil.rmtree(old, ignore_errors=True)


def import_model(
    db: Database, path: Path, name: str | None = None, keep: int = versions.KEEP
) -> str:
    """Load a model file into the database (replacing a model of the same name, atomically);
    returns the model's name. Every value a training would have refused is refused here too,
    naming the file and the value, before anything is written."""
    if name is not None:
        catalog.check_name(name)
    file = path / f"{MODELS.name}.parquet"
    if not file.exists():
        raise SqlnbError(f"{str(path)!r} is not a model file: no {MODELS.name}.parquet in it")
    where = f"model file {str(path)!r}"
    info = _catalog_row(file)
    the_kind, params, n_classes = modelfile.described(info, where)
    name = catalog.check_name(name or str(info["model"]))
    tables = [t for t in catalog.counts(the_kind)[1:] if (path / f"{t.name}.parquet").exists()]
    for table in catalog.counts(the_kind)[1:]:
        if table not in tables and not table.optional:
            raise SqlnbError(f"{where} lacks {table.name}.parquet")
    with contextlib.ExitStack() as stack:
        inserts: list[exp.Expr] = []
        staged_by_name: dict[str, exp.Table] = {}
        for i, table in enumerate(tables):
            file = path / f"{table.name}.parquet"
            staged, types = stack.enter_context(db.parquet(file, f"{STAGED}_{i}"))
            wanted = list(table.types())
            missing = [c for c in wanted if c not in types]
            if missing:
                raise SqlnbError(f"{file.name} of {where} has no column {missing[0]!r}")
            problem = counting.flaws(db, table, staged, n_classes, params)
            if problem is None and table is CLASSES:
                (n,) = db.fetch(exp.select(exp.func("COUNT", exp.Star())).from_(staged))[0]
                problem = None if n == n_classes else f"{n} classes, not {n_classes}"
            if problem is not None:
                raise SqlnbError(f"{file.name} of {where} has {problem}")
            staged_by_name[table.name] = staged
            rows = exp.select(
                exp.convert(name).as_("model"),
                *(exp.column(c, quoted=True) for c in wanted[1:]),
            ).from_(staged)
            inserts.append(exp.insert(rows, table.node(), columns=wanted))
        modelfile.agree(db, the_kind, params, staged_by_name, where)
        statements = [
            *catalog.replacing(db, name, the_kind),
            *inserts,
            *counting.parameters(name, the_kind, params, info["label_type"], n_classes),
        ]
        if params.get("tokenizer"):  # a long stop-word list, for the queries after this
            statements += Tokenizer.from_dict(params["tokenizer"]).storing()
        written = training.Training(db, name, the_kind, params, statements, reads=where)
        written.command, written.keep = "import", keep
        return written.apply().name


def _catalog_row(file: Path) -> dict[str, str]:
    """The one row of a model file's ``sqlnb_models.parquet``, as text."""
    query = exp.select("*").from_(
        exp.Table(this=exp.ReadParquet(expressions=[exp.Literal.string(str(file))]))
    )
    with Database.connect(":memory:") as mem:
        names, found = list(mem.columns(query)), mem.fetch(query)
    if len(found) != 1:
        raise SqlnbError(f"{str(file)!r} should hold one model, not {len(found)}")
    return {n: "" if v is None else str(v) for n, v in zip(names, found[0])}
