"""The ``sqlnb`` command: a thin layer over the Python API.

Results go to stdout. An error is one line on stderr: exit code 1 for an error in the data or
the database (which is left as it was: every change runs in one transaction), 2 for a command
line Click cannot parse (an unknown option, a missing value), 130 for Ctrl-C. ``commands`` holds
the commands that write, ``show`` those that read; both register on :data:`app`
(``sqlnb.cli.app``).
"""

from __future__ import annotations

import sys

from sqlnb.cli import commands, show
from sqlnb.cli.app import app

__all__ = ["app", "commands", "main", "show"]


def main(args: list[str] | None = None) -> None:
    """Run the command line; a usage error is one line (``Error: ...``) and exit code 2."""
    try:
        code = app(args=args, prog_name="sqlnb", standalone_mode=False)
    except Exception as error:
        message = getattr(error, "format_message", None)
        if message is None:  # not one of Click's errors (vendored by Typer)
            raise
        ctx = getattr(error, "ctx", None)
        if type(error).__name__ == "NoArgsIsHelpError" and ctx is not None:
            sys.stdout.write(ctx.get_help() + "\n")
            raise SystemExit(0) from None
        where = f" (see '{ctx.command_path} -h')" if ctx is not None else ""
        sys.stderr.write(f"Error: {message()}{where}\n")
        raise SystemExit(getattr(error, "exit_code", 2)) from None
    raise SystemExit(code if isinstance(code, int) else 0)
