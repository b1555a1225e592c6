"""Events of the write path, and who listens to them: training announces that it wrote a model
(:data:`MODEL_WRITTEN`, inside the write's transaction) and the wings that keep something in
step with the models subscribe, so that the write path does not import them (the SQL functions
stand beside training, not under it).

A subscriber is declared by name (``"module:function"``, as an entry point), imported and looked
up when the event is announced, or given as a callable to :func:`subscribe`. Each is called
with the database and the model written (``None``: every model may have changed); an error
it raises aborts the write.

>>> calls = []
>>> subscribe("example", lambda db, model: calls.append(model))
>>> announce("example", None, "spam")  # type: ignore[arg-type]
>>> calls
['spam']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlnb.engine import Database

Subscriber = Callable[["Database", "str | None"], None]

MODEL_WRITTEN = "model written"  # a training, append, retune, import, calibration or drop

# The subscribers sqlnb declares, by name: the SQL functions keep current after every write.
DECLARED: dict[str, tuple[str, ...]] = {MODEL_WRITTEN: ("sqlnb.functions:refresh",)}
_SUBSCRIBED: dict[str, list[Subscriber]] = {}


def subscribe(event: str, subscriber: Subscriber) -> None:
    """Call ``subscriber`` on each announcement of ``event`` (after the declared ones)."""
    _SUBSCRIBED.setdefault(event, []).append(subscriber)


def subscribers(event: str) -> list[Subscriber]:
    """Who listens to ``event``: the declared subscribers (imported now), then the others."""
    found: list[Subscriber] = []
    for name in DECLARED.get(event, ()):
        module, _, attribute = name.partition(":")
        found.append(getattr(importlib.import_module(module), attribute))
    return [*found, *_SUBSCRIBED.get(event, [])]


def announce(event: str, db: Database, model: str | None = None) -> None:
    """Tell each subscriber of ``event`` that it happened to ``model`` of ``db``."""
    for subscriber in subscribers(event):
        subscriber(db, model)
