"""Token patterns: regular expressions in RE2's syntax, checked before any engine runs them.

A pattern must compile in RE2 (DuckDB's and ClickHouse's engine, and sqlnb's SQLite tokenizer:
time linear in the text whatever the pattern). An engine whose regular expressions backtrack
(Spark's, Java's) can take time exponential in a text's length over a pattern that repeats a
repetition ambiguously, as ``(a+)+$`` does: there such a pattern is refused.

>>> problem("([") is not None, problem(r"[\\pL\\pN]+(?:'[\\pL\\pN]+)*") is None
(True, True)
>>> backtracking_problem(r"[\\pL\\pN]+(?:'[\\pL\\pN]+)*") is None
True
>>> backtracking_problem("(a+)+$")[:50]
'repeats a repetition ambiguously (as (a+)+ does), '
"""

from __future__ import annotations

import functools
import re
import string
from typing import Any

# What the repetition checker reads RE2's Unicode classes as (Python's re has none), inside
# a character class or out: close enough to tell which characters a repetition can match.
_CLASSES = {"L": r"\w", "N": r"\d", "Z": r"\s", "P": r"\W", "S": r"\W"}
# The characters tried against a repetition's items to tell whether two can match alike.
_PROBES = string.printable + "éßπжあ٣"


def compiled(pattern: str) -> Any:
    """The pattern compiled by RE2 (raises ``re2.error``). (RE2 is imported when first used:
    the default pattern's commands never compile one in Python.)"""
    import re2

    options = re2.Options()
    options.log_errors = False  # RE2 would print its own line on stderr
    return re2.compile(pattern, options=options)


@functools.cache
def problem(pattern: str) -> str | None:
    """Why RE2 cannot use ``pattern``, or None."""
    import re2

    try:
        compiled(pattern)
    except re2.error as error:
        reason = error.args[0] if error.args else error
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        return f"does not compile: {reason}"
    return None


@functools.cache
def backtracking_problem(pattern: str) -> str | None:
    """Why a backtracking engine must not run ``pattern`` (a repetition whose iterations can
    split a text in more than one way: a repetition inside it, or alternatives that start
    alike), or None. Conservative: a nested repetition is accepted only where each iteration
    of the outer one starts or ends with a character that the inner one cannot match
    (``(?:'[a-z]+)*``, ``([a-z]+ )*``)."""
    translated = re.sub(
        r"\\([pP])(?:\{(\w+)\}|(\w))",
        lambda m: (
            _CLASSES.get((m.group(2) or m.group(3))[:1], r"\w") if m.group(1) == "p" else r"\W"
        ),
        pattern,
    )
    try:
        parsed = re._parser.parse(translated)  # type: ignore[attr-defined]
    except re.error:
        return "cannot be checked for a backtracking regex engine"
    if _ambiguous(list(parsed)):
        return (
            "repeats a repetition ambiguously (as (a+)+ does), which a backtracking regex "
            "engine can take exponential time over"
        )
    return None


_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


def _ambiguous(items: list[Any]) -> bool:
    """Whether some repetition in ``items`` (sre_parse nodes) can split a text in two ways."""
    for op, value in items:
        name = str(op)
        if name in _REPEATS:
            _, high, body = value
            inner = _unwrapped(list(body))
            if high > 1 and (_overlapping(inner) or (_repeats(inner) and not _guarded(inner))):
                return True
            nested = [inner]
        elif name == "SUBPATTERN":
            nested = [list(value[-1])]
        elif name == "BRANCH":
            nested = [list(b) for b in value[1]]
        else:
            nested = []
        if any(_ambiguous(n) for n in nested):
            return True
    return False


def _unwrapped(items: list[Any]) -> list[Any]:
    """``items`` without the group that holds them all: (ab+) reads as ab+."""
    while len(items) == 1 and str(items[0][0]) == "SUBPATTERN":
        items = list(items[0][1][-1])
    return items


def _repeats(items: list[Any]) -> list[Any]:
    """The repetitions (of more than once) anywhere in ``items``."""
    found = []
    for op, value in items:
        name = str(op)
        if name in _REPEATS:
            if value[1] > 1:
                found.append(value[2])
            found += _repeats(list(value[2]))
        elif name == "SUBPATTERN":
            found += _repeats(list(value[-1]))
        elif name == "BRANCH":
            found += [r for b in value[1] for r in _repeats(list(b))]
    return found


def _guarded(items: list[Any]) -> bool:
    """Whether ``items`` start, or end, with one character that no repetition among them can
    match: each iteration of a repetition of them is then marked off by it."""
    for edge in (items[:1], items[-1:]):
        if not edge or str(edge[0][0]) not in ("LITERAL", "IN"):
            continue
        chars = _chars(edge)
        if chars and not any(_chars(list(r)) & chars for r in _repeats(items)):
            return True
    return False


def _overlapping(items: list[Any]) -> bool:
    """Whether ``items`` hold alternatives that can start with the same character."""
    for op, value in items:
        if str(op) == "BRANCH":
            firsts = [_first(_unwrapped(list(b))) for b in value[1]]
            if any(a & b for i, a in enumerate(firsts) for b in firsts[i + 1 :]):
                return True
        elif str(op) == "SUBPATTERN" and _overlapping(list(value[-1])):
            return True
    return False


def _first(items: list[Any]) -> set[str]:
    """The characters (among the probes) that ``items`` can start with: every probe where the
    first item is not one character's pattern or a repetition of one."""
    if not items:
        return set(_PROBES)
    op, value = items[0]
    if str(op) in ("LITERAL", "IN", "ANY", "NOT_LITERAL", "CATEGORY"):
        return _chars(items[:1])
    if str(op) in _REPEATS and value[0] >= 1:
        return _first(_unwrapped(list(value[2])))
    return set(_PROBES)


def _chars(items: list[Any]) -> set[str]:
    """The probes that the one-character pattern ``items`` matches (every probe if it is not
    one character's pattern)."""
    try:
        pattern = re._parser.SubPattern(re._parser.State(), items)  # type: ignore[attr-defined]
        regex = re._compiler.compile(pattern)  # type: ignore[attr-defined]
    except Exception:  # not a pattern of its own: assume the worst
        return set(_PROBES)
    return {c for c in _PROBES if regex.fullmatch(c) is not None}
