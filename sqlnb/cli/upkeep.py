"""Commands that keep SQL outside the model tables: ``sqlnb functions`` (a database's SQL
functions) and ``sqlnb dbt-package`` (the dbt package)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sqlnb.cli.console import echo, errors, opened
from sqlnb.cli.options import DbArg
from sqlnb.cli.registry import command


@command()
def functions(db: DbArg) -> None:
    """Store each text model's lookup row for DuckDB's SQL functions, which otherwise build it
    in each query (a write of a model deletes its row)."""
    from sqlnb import functions as sql_functions

    with opened(db) as database:
        stored = sql_functions.store(database)
    echo(
        f"stored the lookup rows of {len(stored)} models"
        + (f": {', '.join(stored)}" if stored else "")
    )


@command("dbt-package")
def dbt_package(
    folder: Annotated[Path, typer.Argument(help="Folder to write the package into (dbt/).")],
) -> None:
    """Write sqlnb's dbt package (dbt_project.yml and the macros tokenize, counts, train and
    predict, generated from sqlnb's own SQL for dbt-duckdb and dbt-postgres) into FOLDER."""
    from sqlnb import dbtpackage

    with errors():
        written = dbtpackage.write(folder)
    echo(f"wrote {len(written)} files of the dbt package sqlnb to {folder}")
