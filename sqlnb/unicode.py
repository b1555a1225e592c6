"""One reading of Unicode for every engine's tokenizer: the letters, marks and digits of a token
pattern's ``\\pL``, ``\\pM`` and ``\\pN`` (``\\p{L}`` ...) as explicit characters, and one
lowercase.

PostgreSQL's regular expressions have no ``\\p`` classes, and its ``[[:alpha:]]`` is the
database's locale's (glibc's C.UTF-8 counts Arabic and Thai marks as letters and ``²`` or ``½``
as no digit, where RE2 and Java read the Unicode categories). There :func:`expanded` writes the
classes out as ranges of the characters themselves, from the categories of one Unicode version
shipped with sqlnb (``data/unicode_classes.json``, built by :func:`build`): 15.0, the version of
DuckDB's RE2, so that PostgreSQL reads them as DuckDB does.

Every engine lowercases a character alone (Unicode's simple lowercase mapping, as DuckDB's
LOWER, PostgreSQL's lower() and utf8proc do), except where Python's ``str.lower``, Java's
``toLowerCase`` (Spark) and ClickHouse's ``lowerUTF8`` apply Unicode's full mapping: ``İ`` to
``i̇`` (two characters) and a final ``Σ`` to ``ς``. Those two are mapped first (:data:`FULL`).

>>> expanded(r"[\\pN]+")[:8]
'[0-9²-³¹'
>>> lowered("İSTANBUL ΟΔΥΣΣΕΥΣ Straße")
'istanbul οδυσσευσ straße'
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

from sqlglot import exp

DATA = Path(__file__).parent / "data" / "unicode_classes.json"
CATEGORIES = ("L", "M", "N")
# The characters whose full lowercase mapping is not their simple one, and the simple one.
FULL = {"İ": "i", "Σ": "σ"}
_TABLE = str.maketrans(FULL)
# \pL, \p{L}, \PL (not expanded: refused below), with an optional subcategory letter
_CLASS = re.compile(r"\\([pP])(?:\{(\w+)\}|(\w))")


def build(data: Any = unicodedata) -> dict[str, object]:
    """The ranges (first, last code point) of each category letter in the Unicode of ``data``
    (Python's ``unicodedata``, or ``unicodedata2`` of another version). The shipped table is
    Unicode 15.0, DuckDB's RE2's: ``build(unicodedata2)`` with ``unicodedata2==15.0.0``."""
    found: dict[str, list[list[int]]] = {c: [] for c in CATEGORIES}
    for point in range(0x110000):
        category = data.category(chr(point))[0]
        if category not in found:
            continue
        ranges = found[category]
        if ranges and ranges[-1][1] == point - 1:
            ranges[-1][1] = point
        else:
            ranges.append([point, point])
    return {"unicode": data.unidata_version, "ranges": found}


@functools.cache
def _ranges() -> dict[str, list[list[int]]]:
    ranges: dict[str, list[list[int]]] = json.loads(DATA.read_text("utf-8"))["ranges"]
    return ranges


def version() -> str:
    """The Unicode version of the shipped categories."""
    return str(json.loads(DATA.read_text("utf-8"))["unicode"])


def _items(category: str) -> str:
    """A bracket expression's items for one category: its characters and ranges of them."""
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in _ranges()[category])


def expanded(pattern: str) -> str:
    """``pattern`` with its ``\\pL``, ``\\pM`` and ``\\pN`` written out as the characters of
    those categories (inside a bracket expression its items, outside one a bracket of them).
    A class that is not one of these (``\\PL``, ``\\p{Lu}``) is left for the engine to refuse."""
    out: list[str] = []
    inside = False
    i = 0
    while i < len(pattern):
        match = _CLASS.match(pattern, i)
        if match is not None:
            name = match.group(2) or match.group(3)
            if match.group(1) == "p" and name in CATEGORIES:
                items = _items(name)
                out.append(items if inside else f"[{items}]")
            else:
                out.append(match.group(0))
            i = match.end()
            continue
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if char == "[" and not inside:
            inside = True
            out.append(char)
            if pattern[i + 1 : i + 2] == "^":
                out.append("^")
                i += 1
            if pattern[i + 1 : i + 2] == "]":  # a ] first is a literal
                out.append("]")
                i += 1
        elif char == "[" and pattern[i + 1 : i + 2] in (":", ".", "=") and inside:  # [:alpha:]
            end = pattern.find(pattern[i + 1] + "]", i + 2)
            end = len(pattern) if end < 0 else end + 2
            out.append(pattern[i:end])
            i = end
            continue
        elif char == "]" and inside:
            inside = False
            out.append(char)
        else:
            out.append(char)
        i += 1
    return "".join(out)


def lowered(text: str) -> str:
    """``text`` lowercased a character at a time (Python's ``str.lower`` after :data:`FULL`)."""
    return text.translate(_TABLE).lower()


def lower(text: exp.Expr, full: bool) -> exp.Expr:
    """LOWER(text) of an engine, with :data:`FULL` mapped first where its LOWER is ``full``."""
    for upper, lower_case in FULL.items() if full else ():
        text = exp.func("REPLACE", text, exp.convert(upper), exp.convert(lower_case))
    return exp.Lower(this=text)
