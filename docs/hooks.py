"""MkDocs hooks: the CLI reference is generated from the commands themselves.

A page that holds the marker ``<!-- sqlnb:cli -->`` gets, in its place, every command of
``sqlnb`` (and of ``sqlnb sql``) as Click sees it: its usage, its help, and a table of its
arguments and options with their defaults. Nothing is written by hand, so the reference cannot
fall behind the command line.
"""

from __future__ import annotations

from typing import Any

MARKER = "<!-- sqlnb:cli -->"


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _command(path: str, command: Any) -> list[str]:
    import click

    out = [f"## `{path}`", ""]
    if command.help:
        out += [command.help.strip(), ""]
    ctx = click.Context(command, info_name=path)
    usage = " ".join(command.collect_usage_pieces(ctx)).replace("{", "").replace("}", "")
    out += ["```", f"{path} {usage}", "```", ""]
    rows = []
    for param in command.params:
        if getattr(param, "hidden", False):
            continue
        if isinstance(param, click.Argument):
            name = f"`{param.human_readable_name}`"
        else:
            name = ", ".join(f"`{o}`" for o in [*param.opts, *param.secondary_opts])
        default = param.default
        shown = "" if default in (None, False, ()) or callable(default) else f"`{default}`"
        rows.append(f"| {name} | {_cell(getattr(param, 'help', '') or '')} | {shown} |")
    if rows:
        out += ["| argument or option | what | default |", "|---|---|---|", *rows, ""]
    return out


def reference() -> str:
    """Every command's reference, in the order ``sqlnb -h`` lists them."""
    import typer.main

    from sqlnb.cli import app

    root = typer.main.get_command(app)
    lines: list[str] = []
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        if hasattr(command, "commands"):  # a group: sqlnb sql ...
            if command.help:
                lines += [f"## `sqlnb {name}`", "", command.help.strip(), ""]
            for sub, subcommand in command.commands.items():
                lines += _command(f"sqlnb {name} {sub}", subcommand)
        else:
            lines += _command(f"sqlnb {name}", command)
    return "\n".join(lines)


def on_page_markdown(markdown: str, **_: Any) -> str:
    if MARKER in markdown:
        return markdown.replace(MARKER, reference())
    return markdown
