"""The ``sqlnb`` command for tests, one helper for every file.

:func:`run` calls ``sqlnb.cli.main`` in this process with its own stdout, stderr, environment
and working folder, and returns what a process would give: the exit code, stdout and stderr.
A train takes 0.4 s this way against 1.6-2.5 s as a process. :func:`process` runs the real
command (``python -m sqlnb``) as its own process, for what only a process shows: signals,
the exit code of the interpreter, separate commands, a fresh install. Every caller of
:func:`process` says why in its docstring or a comment.

Nothing of one call reaches the next: the environment, the working folder, the SIGINT handler
(a command that commits ignores Ctrl-C) and the warning filters are put back; connections are
closed by the command itself and anything left is collected before returning. ``sqlnb.cli``
keeps no connection or model between calls (its module-level caches hold parsed SQL only).

Two costs a process pays once are paid once here too (issue 36; each was about 0.12 s of
every call): Typer builds the Click command from the application once, as a process does,
not at every call; and the collection after a call looks only at what the call created (the
objects alive before it are frozen, ``gc.freeze``, during the call and its collection).
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import signal
import subprocess
import sys
import traceback
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# What the tests gave the real command: a width for help and tables, and a plain PATH.
ENV = {"COLUMNS": "200", "PATH": "/usr/bin:/bin"}


@dataclass
class Result:
    """A finished command: as ``subprocess.CompletedProcess`` (``returncode``, ``stdout``,
    ``stderr``), and as the tuple ``code, out, err``."""

    returncode: int
    stdout: str
    stderr: str

    def __iter__(self) -> Iterator[Any]:
        return iter((self.returncode, self.stdout, self.stderr))

    def __getitem__(self, index: int) -> Any:
        return (self.returncode, self.stdout, self.stderr)[index]

    def ok(self) -> Result:
        """Itself, after asserting exit code 0 (the message: the end of stderr)."""
        assert self.returncode == 0, self.stderr[-3000:]
        return self


class _Exited(BaseException):
    """``sqlnb.cli._exit`` in this process: the code it would have exited with."""

    def __init__(self, code: int) -> None:
        self.code = code


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    if env is None:
        yield
        return
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


_COMMAND: list[Any] = []  # the Click command Typer built from sqlnb's application


class _Built:
    """``sqlnb.cli.registry.app`` during a call: the application's Click command, built once
    (Typer's ``app(...)`` builds it again at every call, as a process does once)."""

    def __init__(self, application: Any) -> None:
        if not _COMMAND:
            import typer.main

            _COMMAND.append(typer.main.get_command(application))

    def __call__(self, **options: Any) -> Any:
        return _COMMAND[0](**options)


def run(
    *args: object,
    env: Mapping[str, str] | None = ENV,
    cwd: str | Path | None = None,
    ok: bool = False,
    stdin: str = "",
) -> Result:
    """``sqlnb ARGS`` in this process: exit code, stdout, stderr. ``env`` replaces the
    environment during the call (None keeps this process's); ``ok`` asserts exit code 0."""
    import sqlnb.cli
    import sqlnb.cli.registry
    from sqlnb.cli import commands, show  # noqa: F401  (they register the commands)

    out, err = io.StringIO(), io.StringIO()
    handler = signal.getsignal(signal.SIGINT)
    here = os.getcwd()
    real_exit = sqlnb.cli._exit

    def exit_here(code: int) -> None:
        raise _Exited(code)

    sqlnb.cli._exit = exit_here  # type: ignore[assignment]  # os._exit would end pytest
    application = sqlnb.cli.registry.app
    sqlnb.cli.registry.app = _Built(application)  # type: ignore[assignment]
    code = 0
    gc.freeze()  # what is alive now is not the call's: the collection below skips it
    try:
        with (
            _environment(env),
            warnings.catch_warnings(),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            # a process shows warnings on stderr; pytest's "error" filter would raise them
            warnings.simplefilter("default")
            saved_stdin, sys.stdin = sys.stdin, io.StringIO(stdin)
            try:
                if cwd is not None:
                    os.chdir(cwd)
                sqlnb.cli.main([str(a) for a in args])
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
            except _Exited as done:
                code = done.code
            except Exception:  # a process prints the traceback and exits 1
                err.write(traceback.format_exc())
                code = 1
            finally:
                sys.stdin = saved_stdin
                os.chdir(here)
    finally:
        sqlnb.cli._exit = real_exit  # type: ignore[assignment]
        sqlnb.cli.registry.app = application
        signal.signal(signal.SIGINT, handler)
        gc.collect()  # whatever the command left open is closed before the test reads files
        gc.unfreeze()
    result = Result(code, out.getvalue(), err.getvalue())
    return result.ok() if ok else result


def process(
    *args: object,
    env: Mapping[str, str] | None = ENV,
    cwd: str | Path | None = None,
    ok: bool = False,
    timeout: float | None = 600,
    prefix: tuple[str, ...] = (),
) -> Result:
    """``python -m sqlnb ARGS`` as its own process (``prefix`` goes before it, e.g. ``timeout``
    or ``nice``): exit code, stdout, stderr. ``env`` is the process's whole environment (None:
    this process's)."""
    argv = [*prefix, sys.executable, "-m", "sqlnb", *map(str, args)]
    done = _completed(argv, env=env, cwd=cwd, timeout=timeout)
    result = Result(done.returncode, done.stdout, done.stderr)
    return result.ok() if ok else result


def _completed(
    argv: list[str],
    *,
    env: Mapping[str, str] | None,
    cwd: str | Path | None,
    timeout: float | None,
    stdin: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """``argv`` run to its end, its output captured as text; ``env`` its whole environment
    (None: this process's)."""
    return subprocess.run(
        argv,
        input=stdin,
        capture_output=True,
        text=True,
        env=None if env is None else dict(env),
        cwd=cwd,
        timeout=timeout,
        check=False,
    )


def one_process(
    *commands: Sequence[object],
    env: Mapping[str, str] | None = ENV,
    cwd: str | Path | None = None,
    timeout: float | None = 600,
) -> list[Result]:
    """Several ``sqlnb`` commands, one after the other, each through :func:`run`, in one
    process of their own (a fresh interpreter, ``env`` its whole environment): what a
    separate process shows without a process per command (a Spark Connect client, which
    cannot live beside this process's classic Spark session). What the interpreter itself
    wrote on stderr, outside the commands, ends the last one's stderr."""
    script = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "import cli\n"
        "done = [list(cli.run(*c, env=None)) for c in json.loads(sys.stdin.read())]\n"
        "sys.stdout.write(json.dumps(done))\n"
    )
    given = json.dumps([[str(a) for a in c] for c in commands])
    finished = _completed(
        [sys.executable, "-c", script], env=env, cwd=cwd, timeout=timeout, stdin=given
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    results = [Result(*r) for r in json.loads(finished.stdout)]
    if results:
        results[-1].stderr += finished.stderr
    return results


def popen(
    *args: object, env: Mapping[str, str] | None = ENV, **options: object
) -> subprocess.Popen[str]:
    """``python -m sqlnb ARGS`` started as its own process and left running (signals, locks),
    stdout and stderr piped as text unless ``options`` say otherwise."""
    settings: dict[str, object] = {
        "stdout": subprocess.PIPE,
        "stderr": subprocess.PIPE,
        "text": True,
        "env": None if env is None else dict(env),
    }
    settings.update(options)
    command = [sys.executable, "-m", "sqlnb", *map(str, args)]
    return subprocess.Popen(command, **settings)  # type: ignore[call-overload]
