"""Commands that keep a database's SQL functions: ``sqlnb functions``."""

from __future__ import annotations

from sqlnb.cli.console import echo, opened
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
