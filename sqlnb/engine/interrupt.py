"""A statement run so that Ctrl-C stops it: in a worker thread, while the main thread waits."""

from __future__ import annotations

import contextlib
import queue
import signal
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def interruptibly(
    call: Callable[[], T],
    interrupt: Callable[[], None],
    progress: Callable[[], None] | None = None,
    *,
    commit: bool = False,
) -> T:
    """Run ``call`` in a worker thread, so that Ctrl-C stops it: the main thread waits, gets
    the KeyboardInterrupt, calls ``interrupt`` until the worker stops and re-raises it (the
    enclosing transaction then rolls back). Calls ``progress`` every 0.1 s while it waits.

    A Ctrl-C that arrives while a ``commit`` runs cannot stop it: the commit completes and the
    call returns normally, so a KeyboardInterrupt from here always means that nothing was
    committed."""
    # The outcome in a dict, the news of it through a queue implemented in C: a Ctrl-C that
    # lands inside a Python-level Condition.wait (Event, Thread.join) can leave its lock half
    # released ("release unlocked lock"), and one that lands just after get() returned would
    # lose the item it took: the dict keeps the outcome whatever the signal interrupts.
    box: dict[str, tuple[bool, Any]] = {}
    news: queue.SimpleQueue[None] = queue.SimpleQueue()

    def work() -> None:
        try:
            box["outcome"] = (True, call())
        except BaseException as error:  # handed back to the calling thread
            box["outcome"] = (False, error)
        finally:
            news.put(None)

    def finished(seconds: float) -> bool:
        with contextlib.suppress(queue.Empty):
            news.get(timeout=seconds)
        return "outcome" in box

    worker = threading.Thread(target=work, name="sqlnb-statement", daemon=True)
    # Ctrl-C held back while the thread starts (the thread starts with it held back too, so
    # that it is the main thread's): a Ctrl-C before the start leaves nothing running, one
    # during it could not tell whether the statement runs.
    held = _hold()
    try:
        try:
            worker.start()
        finally:
            _release(held)
        while not finished(0.1):
            if progress is not None:
                progress()
    except KeyboardInterrupt:
        while not finished(0.05):  # until it stops
            interrupt()
        ok, value = box["outcome"]
        if commit and ok:
            return value  # type: ignore[no-any-return]
        raise
    ok, value = box["outcome"]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]


def _hold() -> bool:
    """Hold Ctrl-C back (where threads have signal masks); whether it was."""
    if not hasattr(signal, "pthread_sigmask"):
        return False
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    return True


def _release(held: bool) -> None:
    """Let a held-back Ctrl-C through: its KeyboardInterrupt is raised from here."""
    if held:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
