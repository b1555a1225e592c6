"""Issues 35 (point 5) and 38: the fixed costs of a command from raw text, a process of its own
(`sqlnb train --docs`, `sqlnb predict --docs`, benchmarks/speed.py against chDB's NAIVE_BAYES)."""

from __future__ import annotations

import gc
import signal
import sys

import pytest

from sqlnb.cli import main


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
