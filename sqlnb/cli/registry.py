"""The Typer applications and how a command is registered: once as ``sqlnb NAME`` and, for the
commands that can print the SQL they run, once more as ``sqlnb sql NAME`` from the same
function (its ``dialect`` parameter exposed, its run-only options left out)."""

from __future__ import annotations

import copy
import inspect
import sys
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from sqlnb.cli.console import errors
from sqlnb.cli.options import DialectOpt, expand
from sqlnb.engine import dialects

F = TypeVar("F", bound=Callable[..., Any])

SETTINGS = {"help_option_names": ["-h", "--help"]}
app = typer.Typer(
    help="Naive Bayes classifiers trained and applied inside SQL databases.",
    context_settings=SETTINGS,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
sql_app = typer.Typer(
    help="Print the SQL a command would run, for any dialect, without running it.",
    context_settings=SETTINGS,
    no_args_is_help=True,
)
app.add_typer(sql_app, name="sql")


def _version(value: bool) -> None:
    if value:
        from sqlnb.version import __version__

        sys.stdout.write(f"sqlnb {__version__}\n")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Naive Bayes classifiers trained and applied inside SQL databases."""


def command(
    name: str | None = None, *, sql: str | None = None, run_only: tuple[str, ...] = ()
) -> Callable[[F], F]:
    """Register a command. A command with ``sql`` (the help of its ``sqlnb sql`` twin) takes
    a parameter ``dialect``: None runs it, a dialect's name prints its script instead."""

    def register(fn: F) -> F:
        runs = expand(fn, skip=("dialect",))
        app.command(name, help=reflowed(fn.__doc__))(runs)
        if sql is not None:
            prints = expand(fn, skip=run_only, overrides={"dialect": (DialectOpt, "duckdb")})

            def checked(**values: Any) -> Any:
                with errors():
                    dialects.dialect(values["dialect"])  # an unknown dialect: one line
                return prints(**values)

            checked.__signature__ = prints.__signature__  # type: ignore[attr-defined]
            checked.__annotations__ = prints.__annotations__
            checked.__doc__ = sql
            sql_app.command(name or fn.__name__.replace("_", "-"))(checked)
        return fn

    return register


def narrowed(args: list[str]) -> typer.Typer:
    """The application with only the command (or group, ``sql``) that ``args`` names, for a
    process that runs one: Typer builds every command's Click parameters at a call (26
    commands, 370 parameters: 14 ms of CPU against 2 ms for one). The whole application
    where ``args`` names none of them (help, ``--version``, a typo: Click's own messages)."""
    name = args[0] if args else ""
    commands = [c for c in app.registered_commands if _name(c.name, c.callback) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if len(commands) + len(groups) != 1:
        return app
    one = copy.copy(app)
    one.registered_commands, one.registered_groups = commands, groups
    return one


def _name(name: str | None, callback: Callable[..., Any] | None) -> str | None:
    """A registered command's name, as Typer derives it."""
    if name or callback is None:
        return name
    return callback.__name__.lower().replace("_", "-")


def reflowed(doc: str | None) -> str | None:
    """A docstring's paragraphs each on one line: the terminal wraps them, never mid-sentence
    at the docstring's own line breaks."""
    if doc is None:
        return None
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


def print_script(text: str) -> None:
    """A printed script goes to stdout as it is."""
    sys.stdout.write(text)
