"""The command line's output: results to stdout, one-line errors to stderr with exit code 1,
``Interrupted`` and exit code 130 on Ctrl-C, a progress bar on a terminal."""

from __future__ import annotations

import contextvars
import json
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer

from sqlnb import settings
from sqlnb.engine import Database
from sqlnb.engine.connections import ALONE
from sqlnb.errors import SqlnbError

# Control characters (C0 but tab and newline, DEL, C1) as escapes: a label, a model name or
# a word holding a terminal's escape sequence ("\x1b[2J", "\x1b]0;title\x07") is shown, never
# obeyed. Every line this module prints to a person passes through :func:`plain`.
CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if chr(c) not in "\t\n"}


def plain(text: str) -> str:
    r"""``text`` with its control characters written as escapes.

    >>> print(plain("\x1b]0;title\x07 ok\r\nnext"))
    \x1b]0;title\x07 ok\x0d
    next
    """
    return text.translate(CONTROLS)


def echo(line: str) -> None:
    """One line of results on stdout, as it is (never wrapped), control characters escaped."""
    sys.stdout.write(plain(line) + "\n")


def note(line: str) -> None:
    """One line of information on stderr (stdout may be the rows), control characters
    escaped."""
    sys.stderr.write(plain(line) + "\n")


def table(*headers: str, title: str | None = None) -> Any:
    """A rich table whose headers, title and cells are plain text: a label such as ``[red]``
    is shown as it is, never read as rich's markup, and control characters as escapes."""
    from rich.markup import escape
    from rich.table import Table

    def text(cell: str) -> str:
        return escape(plain(cell))

    class Plain(Table):
        def add_row(self, *cells: Any, **options: Any) -> None:
            super().add_row(*(text(c) if isinstance(c, str) else c for c in cells), **options)

    return Plain(*map(text, headers), title=None if title is None else text(title))


def display(renderable: Any) -> None:
    """A table (rich) on stdout: fitted to a terminal; in a pipe or a file, at full width."""
    from rich.console import Console

    wide = None if sys.stdout.isatty() else 10_000
    if isinstance(renderable, str):
        from rich.markup import escape

        renderable = escape(plain(renderable))
    Console(highlight=False, width=wide, soft_wrap=wide is not None).print(renderable)


FILE_SUFFIXES = (".parquet", ".csv", ".json")  # an --output that is a file, not a table
# an --output with one of these suffixes is meant as a file of a format sqlnb does not write
OTHER_FILES = (".xlsx", ".xls", ".tsv", ".txt", ".jsonl", ".ndjson", ".arrow", ".feather", ".avro")


def print_rows(columns: list[str], rows: list[Any], output_format: str | None) -> None:
    """Rows on stdout: a table (the default on a terminal), CSV (the default in a pipe) or
    JSON, one object per line (JSON escapes control characters; a table escapes them, and
    CSV on a terminal, not in a pipe or a file, where the values are data)."""
    chosen = output_format or ("table" if sys.stdout.isatty() else "csv")
    if chosen == "csv":
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        if sys.stdout.isatty():
            rows = [[plain(v) if isinstance(v, str) else v for v in row] for row in rows]
        writer.writerow(columns)
        writer.writerows(rows)
    elif chosen == "json":
        for row in rows:
            sys.stdout.write(json.dumps(dict(zip(columns, row)), default=str) + "\n")
    elif chosen == "table":
        shown = table(*columns)
        for row in rows:
            shown.add_row(*("" if v is None else str(v) for v in row))
        display(shown)
    else:
        fail(f"unknown --format {chosen!r}: choose table, csv or json")


def dropped(method: str | None) -> None:
    """Say that a change of the model dropped its calibration (fitted by ``method``)."""
    if method:
        echo(
            f"its {method} calibration was dropped (fitted to the model before this change): "
            "run sqlnb calibrate again"
        )


def fail(message: str) -> NoReturn:
    """One line on stderr, exit code 1 (never wrapped to the terminal's width)."""
    sys.stderr.write(f"Error: {plain(' '.join(message.split()))}\n")
    raise typer.Exit(1)


@contextmanager
def errors() -> Iterator[None]:
    """sqlnb's errors as one line and exit code 1; Ctrl-C as exit code 130 (its line is
    the command line's, sqlnb.cli.main: Typer turns a Ctrl-C anywhere else into 130 too)."""
    try:
        yield
    except SqlnbError as error:
        fail(str(error))
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


def committing() -> None:
    """From here on (a command's changes are being committed) Ctrl-C no longer stops the
    command: it finishes and exits 0, so that exit code 130 always means nothing changed."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


WAIT: contextvars.ContextVar[float | None] = contextvars.ContextVar("wait", default=None)


@contextmanager
def waiting(seconds: float | None) -> Iterator[None]:
    """Within the block, :func:`opened` waits up to ``seconds`` for a locked DuckDB file, or
    PostgreSQL's lock of the models (None: each engine's default, 0 and 30 s)."""
    token = WAIT.set(seconds)
    try:
        yield
    finally:
        WAIT.reset(token)


@contextmanager
def opened(db: str, *, create: bool = False) -> Iterator[Database]:
    """The database, with a progress bar on a terminal for long queries."""
    with errors():
        wait = WAIT.get()
        if wait is not None and not wait >= 0:
            raise settings.WAIT.refuse(wait, "")
        alone = ALONE.set(True)  # the command's one connection to its file
        try:
            database = Database.connect(db, create=create, wait=wait)
        finally:
            ALONE.reset(alone)
    database.on_commit = committing
    failed = True  # a file this command created is removed if the command fails
    profile = os.environ.get("SQLNB_PROFILE")
    if profile:  # each statement's seconds, one JSON line each (benchmarks/speed.py reads them)
        database.timer = _profiler(profile)
    try:
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                Progress,
                TaskProgressColumn,
                TextColumn,
                TimeElapsedColumn,
            )

            with Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TaskProgressColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True, highlight=False),
                transient=True,
            ) as bar:
                task = bar.add_task("reading", total=100)
                database.progress, database.on_stage = _progress(bar, task)
                with errors():
                    yield database
        else:
            with errors():
                yield database
        failed = False
    finally:
        database.close()
        if failed and database.created and database.path:
            if Path(database.path).is_dir():  # chDB's folder
                shutil.rmtree(database.path, ignore_errors=True)
            for leftover in (database.path, database.path + ".wal"):
                if Path(leftover).is_file():
                    Path(leftover).unlink()


def _profiler(path: str) -> Callable[[str, float], None]:
    def record(text: str, seconds: float) -> None:
        with open(path, "a", encoding="utf-8") as file:
            file.write(
                json.dumps({"seconds": seconds, "cpu": time.process_time(), "sql": text}) + "\n"
            )

    return record


def _progress(
    bar: Any, task: Any
) -> tuple[Callable[[float], None], Callable[[str, float | None], None]]:
    """The bar's two hooks: the running statement's percentage (DuckDB's, where the engine
    has one), and the stage, with the share of a command's steps done where it has several
    (then the bar shows that share, and the statement moves it within the step)."""
    state: dict[str, float | None] = {"done": None}

    def statement(percent: float) -> None:
        done = state["done"]
        if done is not None:
            bar.update(task, completed=100 * done)
        elif percent >= 0:
            bar.update(task, completed=percent)

    def stage(what: str, done: float | None) -> None:
        state["done"] = done
        bar.update(task, description=what, completed=100 * done if done is not None else 0)

    return statement, stage
