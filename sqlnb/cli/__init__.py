"""The ``sqlnb`` command: a thin layer over the Python API.

Results go to stdout. An error is one line on stderr: exit code 1 for an error in the data or
the database (which is left as it was: every change runs in one transaction), 2 for a command
line Click cannot parse (an unknown option, a missing value), 130 for Ctrl-C before anything was
committed (once a command has committed, Ctrl-C no longer stops it: it finishes, exit code 0),
141 (nothing on stderr) when a reader closes stdout early (``| head``).
``commands`` holds the commands that write, ``show`` those that read; both register on
:data:`app` (``sqlnb.cli.registry``), which is imported when first used.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from sqlnb.errors import INTERRUPTED  # (importing it can neither fail nor wait)


def main(args: list[str] | None = None) -> None:
    """Run the command line; a usage error is one line (``Error: ...``) and exit code 2; a
    Ctrl-C at any moment before a commit, even while the command starts, one line and 130.
    Without ``args`` (a process of its own: the ``sqlnb`` script, ``python -m sqlnb``), the
    garbage collector skips what the imports made (modules, classes: no garbage) and, at the
    end, what is alive: the interpreter's last collection walked every object of sqlglot and
    the command (0.1 s of CPU of a DuckDB training or prediction, a tenth of it); sqlnb has
    closed its databases by then."""
    if args is not None:
        _main(args)
        return
    gc.disable()  # until the imports are done (_main)
    try:
        _main(None)
    finally:
        gc.freeze()


def _main(args: list[str] | None) -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C: KeyboardInterrupt
    try:
        from sqlnb.cli import commands, show  # noqa: F401  (they register the commands)
        from sqlnb.cli.registry import app, narrowed

        if args is None:  # the imports' objects out of every collection of the command
            gc.freeze()
            gc.enable()
        application = narrowed(sys.argv[1:]) if args is None else app
        hook, sys.unraisablehook = sys.unraisablehook, _unraisable(sys.unraisablehook)
        try:
            code = application(args=args, prog_name="sqlnb", standalone_mode=False)
        finally:
            sys.unraisablehook = hook
    except KeyboardInterrupt:
        code = 130
    except Exception as error:
        if _interrupted(error):  # an error raised while a Ctrl-C unwound: still a Ctrl-C
            sys.stderr.write(INTERRUPTED)
            _exit(130)
        if type(error).__name__ != "ClosedOutput":  # sqlnb.cli.options.ClosedOutput
            return _failed(error)
        # stdout closed early (| head): quietly, 141, as other tools
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        _exit(141)
    if code == 130:  # interrupted: everything is closed and rolled back by now (Typer
        sys.stderr.write(INTERRUPTED)  # returns 130 for a Ctrl-C outside sqlnb's handlers)
        _exit(130)
    raise SystemExit(code if isinstance(code, int) else 0)


def _unraisable(hook: Callable[[Any], object]) -> Callable[[Any], None]:
    """``sys.unraisablehook`` during a command. A Ctrl-C that arrives while Python runs code
    it cannot raise from (a weak reference's callback, a finalizer) is lost: Python prints
    "Exception ignored in ..." and the command goes on. It goes on without those lines, as
    if the Ctrl-C had not come (exit 0 and its whole change, unless a later Ctrl-C stops it);
    raised again from here, it would only be lost in this hook. Anything else goes to
    ``hook``."""

    def unraisable(what: Any) -> None:
        if not (isinstance(what.exc_type, type) and issubclass(what.exc_type, KeyboardInterrupt)):
            hook(what)

    return unraisable


def _interrupted(error: BaseException | None) -> bool:
    """Whether ``error`` was raised while a KeyboardInterrupt was being handled, or is
    DuckDB's own for a Ctrl-C that arrived while it ran in this thread (its client turns the
    signal into ``RuntimeError('Query interrupted')``, with no KeyboardInterrupt to see: a
    connection's settings as it opens; sqlnb's statements run in a thread of their own)."""
    seen = 0
    while error is not None and seen < 20:
        if isinstance(error, KeyboardInterrupt):
            return True
        if type(error) is RuntimeError and str(error) == "Query interrupted":
            return True
        error, seen = error.__context__, seen + 1
    return False


def _failed(error: Exception) -> None:
    """One of Click's errors (vendored by Typer) as one line and its exit code; any other
    error is raised."""
    message = getattr(error, "format_message", None)
    if message is None:
        raise error
    ctx = getattr(error, "ctx", None)
    if type(error).__name__ == "NoArgsIsHelpError" and ctx is not None:
        sys.stdout.write(ctx.get_help() + "\n")
        raise SystemExit(0) from None
    where = f" (see '{ctx.command_path} -h')" if ctx is not None else ""
    sys.stderr.write(f"Error: {message()}{where}\n")
    raise SystemExit(getattr(error, "exit_code", 2)) from None


def _exit(code: int) -> None:
    """Exit at once. (A KeyboardInterrupt that arrived while a library ran Python code of its
    own makes the interpreter, at its normal exit, kill itself with SIGINT even though sqlnb
    handled it: exit code -2 rather than 130.)"""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def __getattr__(name: str) -> Any:
    """``app`` (the Typer application, with every command registered), when first used."""
    if name == "app":
        from sqlnb.cli import commands, show  # noqa: F401
        from sqlnb.cli.registry import app

        return app
    raise AttributeError(f"module 'sqlnb.cli' has no attribute {name!r}")


__all__ = ["app", "main"]
