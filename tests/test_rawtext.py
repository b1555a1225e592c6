"""Issues 35 (point 5) and 38: the fixed costs of a command from raw text, a process of its own
(`sqlnb train --docs`, `sqlnb predict --docs`, benchmarks/speed.py against chDB's NAIVE_BAYES)."""

from __future__ import annotations

import gc
import signal
import subprocess
import sys
from typing import Any

import duckdb
import pytest
import typer.main
from typer.core import TyperGroup

from sqlnb.cli import main
from sqlnb.errors import INTERRUPTED


def _freezes(monkeypatch: pytest.MonkeyPatch, args: list[str] | None) -> int:
    """How many objects ``main(args)`` left frozen out of the garbage collector."""
    monkeypatch.setattr(sys, "argv", ["sqlnb", "--version"])
    handler = signal.getsignal(signal.SIGINT)
    gc.unfreeze()
    try:
        main(args)
    except SystemExit as done:
        assert done.code in (0, None)
    finally:
        frozen = gc.get_freeze_count()
        gc.unfreeze()
        signal.signal(signal.SIGINT, handler)
    return frozen


def test_a_process_leaves_its_objects_out_of_the_last_collection(monkeypatch, capsys):
    """The interpreter's collection at exit walked every object sqlglot and the command
    made (0.07-0.1 CPU-s of each process): the command line's own entry freezes them."""
    assert _freezes(monkeypatch, None) > 10_000
    assert capsys.readouterr().out.startswith("sqlnb ")


def test_a_call_with_arguments_leaves_the_collector_as_it_was(monkeypatch, capsys):
    """main(args) (tests, a caller's own process) keeps its garbage collectable."""
    assert _freezes(monkeypatch, ["--version"]) == 0
    assert capsys.readouterr().out.startswith("sqlnb ")


def _help(command: Any) -> list[Any]:
    """What a command's help is made of (rendering it takes rich: a second for them all)."""
    fields = ("name", "opts", "secondary_opts", "help", "default", "required", "hidden")
    params = [[repr(getattr(p, f, None)) for f in fields] for p in command.params]
    return [command.name, command.help, command.hidden, params]


def test_a_process_builds_only_the_command_it_runs():
    """Typer builds every command's Click parameters at a call: a process builds the one it
    runs (or the ``sql`` group), with the same options and help as in the whole application."""
    from sqlnb.cli import commands, show  # noqa: F401  (they register the commands)
    from sqlnb.cli.registry import app, narrowed

    whole = typer.main.get_command(app)
    assert isinstance(whole, TyperGroup)
    for name, command in whole.commands.items():
        one = narrowed([name, "x.duckdb", "--model", "m"])
        assert one is not app
        built = typer.main.get_command(one)
        assert isinstance(built, TyperGroup) and list(built.commands) == [name]
        assert _help(built.commands[name]) == _help(command), name
    for args in ([], ["-h"], ["--version"], ["tarin", "x.duckdb"], ["x.duckdb", "train"]):
        assert narrowed(args) is app  # help, the version, Click's "No such command"


def test_a_narrowed_process_runs_and_fails_as_the_whole_application(tmp_path, monkeypatch):
    db = tmp_path / "m.duckdb"
    duckdb.connect(str(db)).close()
    handler = signal.getsignal(signal.SIGINT)
    outcomes = []
    try:
        for argv in (["models", str(db)], ["models", str(db), "--bogus"], ["tarin", str(db)]):
            for args in (argv, None):
                monkeypatch.setattr(sys, "argv", ["sqlnb", *argv])
                try:
                    main(args)
                except SystemExit as done:
                    outcomes.append(done.code)
                finally:
                    gc.unfreeze()
    finally:
        signal.signal(signal.SIGINT, handler)
    assert outcomes == [0, 0, 2, 2, 2, 2]


def test_a_process_runs_its_command_with_the_imports_frozen(monkeypatch):
    """The imports' objects (modules, classes: no garbage) are out of the collections a
    command makes (a training's one full collection walked them all: 0.02-0.03 CPU-s), and
    the collector runs during the command as in any process."""
    from sqlnb.cli import registry

    seen: list[tuple[bool, int]] = []

    def application(**options: Any) -> int:
        seen.append((gc.isenabled(), gc.get_freeze_count()))
        return 0

    monkeypatch.setattr(registry, "narrowed", lambda args: application)
    assert _freezes(monkeypatch, None) > 10_000
    assert gc.isenabled()
    assert seen and seen[0][0] and seen[0][1] > 10_000


def test_a_ctrl_c_while_duckdb_runs_in_the_main_thread_is_an_interruption(tmp_path, monkeypatch):
    """DuckDB's client turns a SIGINT that arrives while it runs in the calling thread into
    ``RuntimeError('Query interrupted')`` (no KeyboardInterrupt): as a connection's settings
    run when it opens, test_robustness's Ctrl-C at random moments got a traceback, exit 1."""
    import cli

    from sqlnb.engine import backends

    db = tmp_path / "m.duckdb"
    duckdb.connect(str(db)).close()

    def opening(self: Any, connection: Any, **options: Any) -> None:
        raise RuntimeError("Query interrupted")  # what DuckDB raises on a SIGINT then

    monkeypatch.setattr(backends.DuckDBBackend, "__init__", opening)
    assert tuple(cli.run("models", str(db))) == (130, "", INTERRUPTED)
    monkeypatch.undo()
    assert cli.run("models", str(db))[0] == 0


PROBE = """
import signal, sys
assert "typing" not in sys.modules
sys.argv = ["sqlnb"]
seen = []
class Probe:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name not in seen:
            seen.append(name)
            handler = signal.getsignal(signal.SIGINT)
            print(name, getattr(handler, "__name__", handler))
        return None
sys.meta_path.insert(0, Probe)
import sqlnb
"""


def test_a_starting_process_takes_ctrl_c_before_its_first_costly_import():
    """sqlnb's one-line Ctrl-C at start is in place before ``typing`` (5-20 ms) is imported:
    a Ctrl-C in it was a traceback and exit -2 in test_robustness on a loaded machine."""
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    handlers = dict(line.split() for line in done.stdout.splitlines())
    assert handlers["typing"] == "_interrupted_at_start", done.stdout


def test_a_ctrl_c_python_can_only_lose_leaves_no_lines(tmp_path, monkeypatch):
    """A Ctrl-C that arrives while Python runs a callback it cannot raise from (a finalizer,
    the import lock's weak reference) is lost, and Python printed "Exception ignored in ...":
    test_robustness saw an export exit 0, its change whole, with those lines on stderr."""
    import contextlib

    import cli

    from sqlnb.cli import show

    class Finalized:
        def __del__(self) -> None:
            raise KeyboardInterrupt

    real = show.opened

    @contextlib.contextmanager
    def opened(*args: Any, **options: Any) -> Any:
        Finalized()  # gone at once: its KeyboardInterrupt goes to sys.unraisablehook
        with real(*args, **options) as database:
            yield database

    db = tmp_path / "m.duckdb"
    duckdb.connect(str(db)).close()
    monkeypatch.setattr(show, "opened", opened)
    hook = sys.unraisablehook
    code, out, err = cli.run("models", str(db))
    assert (code, err) == (0, "") and out
    assert sys.unraisablehook is hook


def test_a_ctrl_c_typer_catches_is_one_line_too(tmp_path, monkeypatch):
    """A Ctrl-C in a command outside sqlnb's own handlers (before its database is open, after
    it is closed) reached Typer, which returns 130 without a word: test_robustness saw an
    import exit 130 with nothing on stderr. The line is the command line's, for every 130."""
    import cli

    from sqlnb.cli import show

    def opened(*args: Any, **options: Any) -> Any:
        raise KeyboardInterrupt

    db = tmp_path / "m.duckdb"
    duckdb.connect(str(db)).close()
    monkeypatch.setattr(show, "opened", opened)
    assert tuple(cli.run("models", str(db))) == (130, "", INTERRUPTED)
