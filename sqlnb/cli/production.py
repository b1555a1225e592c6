"""The commands of a model in production: versions, rollback, drop (a model, or one kept
version), export and import (a model file, between databases) and monitor
(:mod:`sqlnb.monitor`); ``--keep`` and ``--version`` of the others."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from sqlnb import settings, training, versions
from sqlnb.cli.console import display, echo, opened, table
from sqlnb.cli.options import SOURCE, DbArg, ModelOpt, ReplaceOpt, uses
from sqlnb.cli.registry import command
from sqlnb.inputs import Source

KeepOpt = Annotated[int, typer.Option(help=settings.KEEP.help)]
VersionOpt = Annotated[
    int | None,
    typer.Option("--version", help="A kept version of the model (sqlnb versions)."),
]


@command("versions")
def list_versions(
    db: DbArg,
    model_name: ModelOpt = "default",
    as_json: Annotated[bool, typer.Option("--json", help="Print only JSON.")] = False,
) -> None:
    """The kept versions of a model: version, created, command, documents, words, current."""
    with opened(db) as database:
        found = versions.listing(database, model_name)
    if as_json:
        sys.stdout.write(json.dumps([v.as_dict() for v in found], indent=2) + "\n")
        return
    shown = table("version", "created", "command", "documents", "words", "current")
    for v in found:
        shown.add_row(str(v.version), v.created, v.command, f"{v.documents:.10g}", str(v.words),
            "yes" if v.current else "")  # fmt: skip
    display(shown)


@command()
def rollback(
    db: DbArg,
    model_name: ModelOpt = "default",
    to: Annotated[
        int | None, typer.Option(help="The kept version to make current (default: the one before).")
    ] = None,
) -> None:
    """Make an earlier kept version of a model its current one again, atomically (no new
    version is made: sqlnb rollback --to the newer one goes back)."""
    with opened(db) as database:
        old, new = versions.rollback(database, model_name, to)
    echo(f"model {model_name!r}: version {new} is current (was {old})")


@command("drop")
def drop_model(db: DbArg, model_name: ModelOpt = "default", version: VersionOpt = None) -> None:
    """Remove a model, every kept version of it included; with --version, one kept version
    that is not the current one."""
    with opened(db) as database:
        if version is not None:
            versions.drop_version(database, model_name, version)
        else:
            training.drop(database, model_name)
    if version is not None:
        echo(f"dropped version {version} of model {model_name!r}")
        return
    echo(f"dropped model {model_name!r}")


@command("export")
def export_model(
    db: DbArg,
    to: Annotated[
        Path,
        typer.Option("--output", "-o", "--to", help="Folder to write the Parquet files into."),
    ],
    model_name: ModelOpt = "default",
    replace: Annotated[bool, typer.Option(help="Replace an earlier model file there.")] = False,
    version: VersionOpt = None,
) -> None:
    """Write a model (counts, hyperparameters, tokenizer, version) as Parquet files: one
    committed version of it."""
    from sqlnb import files  # (here: at module level it is a 14th import layer)

    with opened(db) as database:
        written = files.export_model(database, model_name, to, replace=replace, version=version)
    echo(f"wrote model {model_name!r} to {to} ({len(written)} files)")


@command("import")
def import_model(
    db: DbArg,
    path: Annotated[Path, typer.Argument(help="A folder written by sqlnb export.")],
    model_name: Annotated[
        str | None, typer.Option("--model", "-m", help="Name to give it (default: its own).")
    ] = None,
    keep: KeepOpt = versions.KEEP,
) -> None:
    """Load a model file into any supported engine (replacing a model of that name)."""
    from sqlnb import files

    with opened(db, create=True) as database:
        name = files.import_model(database, path, model_name, keep)
    echo(f"imported model {name!r}")


TimeOpt = Annotated[
    str | None,
    typer.Option(help="DATE or TIMESTAMP column of the documents: one window per --every."),
]
EveryOpt = Annotated[str, typer.Option(help=settings.EVERY.help)]


@command()
def monitor(
    db: DbArg,
    model_name: ModelOpt = "default",
    data: Source = uses(SOURCE),
    time_column: TimeOpt = None,
    every: EveryOpt = settings.EVERY.default,
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Table to create with the rows.")
    ] = None,
    replace: ReplaceOpt = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print only JSON.")] = False,
) -> None:
    """Drift of new documents from a text model's training, per window and class: documents,
    tokens, unknown_rate, js_divergence, predicted_share, training_prior, estimated_prior."""
    from sqlnb import monitor as monitoring
    from sqlnb.model import load

    with opened(db) as database:
        m = load(database, model_name)
        windows = monitoring.Windows(time_column, every)
        rows, type_name = monitoring.monitor(database, m, data, windows)
        if output is not None:
            query = monitoring.as_query(rows, type_name)
            n = database.write_table(output, query, replace=replace)
    if output is not None:
        echo(f"wrote {n} rows to {output}")
        return
    if as_json:
        sys.stdout.write(json.dumps(rows, indent=2, default=str) + "\n")
        return
    shown = table(*monitoring.COLUMNS)
    for r in rows:
        shown.add_row(*("" if v is None else _shown(v) for v in r.values()))
    display(shown)


def _shown(value: object) -> str:
    return f"{value:.6g}" if isinstance(value, float) else str(value)
