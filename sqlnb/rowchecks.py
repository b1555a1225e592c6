"""The checks of rows that claim to be a model's (a model file's, or a model's rows): each way
they break what their table declares (:class:`sqlnb.kinds.ModelTable`), in words, from one
query; the module stays below the catalog and the model files that use it."""

from __future__ import annotations

import math

from sqlglot import exp

from sqlnb import templates
from sqlnb.engine import Database
from sqlnb.kinds import ModelTable


def flaws(
    db: Database, table: ModelTable, source: exp.Expr, n_classes: int, *, unique: bool = True
) -> str | None:
    """The first way the rows of ``source`` (a relation with ``table``'s columns: a model
    file's, or a model's rows) break what ``table`` declares (:class:`ModelTable`), in words,
    or None; without ``unique``, repeated keys are not looked for."""
    column = templates.col
    checks: list[tuple[str, exp.Expr]] = []

    def rows(condition: exp.Expr) -> exp.Expr:
        return exp.Sum(this=exp.Case().when(condition, exp.convert(1)).else_(exp.convert(0)))

    def bad_number(name: str) -> exp.Expr:
        finite = exp.EQ(
            this=exp.Mul(this=column(name), expression=exp.convert(0)), expression=exp.convert(0)
        )
        return exp.or_(column(name).is_(exp.null()), exp.not_(finite))

    for name in dict.fromkeys(c for key in table.keys for c in key):
        checks.append((f"rows with a NULL {name}", rows(column(name).is_(exp.null()))))
    if "class_id" in table.columns:
        outside = exp.or_(
            column("class_id") < 0,
            column("class_id") >= n_classes,
            column("class_id").is_(exp.null()),
        )
        checks.append(("rows whose class_id is not one of the model's classes", rows(outside)))
    for name in table.amounts:
        negative = exp.or_(bad_number(name), column(name) < 0)
        checks.append(
            (f"values of {name} that are NULL, NaN, infinite or negative", rows(negative))
        )
    for name in table.finite:
        checks.append((f"values of {name} that are NULL, NaN or infinite", rows(bad_number(name))))
    # (what, how many, a value to name, the most rows there may be): rules that name a value
    named: list[tuple[str, exp.Expr, exp.Expr, int]] = []
    for name in table.whole:  # (NaN and infinity are refused above)
        broken = exp.or_(column(name) < 1, exp.func("ROUND", column(name)).neq(column(name)))
        named.append(
            (f"values of {name} that are not whole numbers >= 1", *_first(broken, name), 0)
        )
    for name, values in table.choices:
        outside = exp.not_(column(name).isin(*(exp.convert(v) for v in values)))
        outside = exp.or_(column(name).is_(exp.null()), outside)
        named.append(
            (f"values of {name} not one of {', '.join(values)}", *_first(outside, name), 0)
        )
        mixed = exp.func("COUNT", exp.Distinct(expressions=[column(name)]))
        shown = exp.Max(this=exp.cast(column(name), "VARCHAR"))
        named.append((f"different values of {name} (sqlnb writes one a model)", mixed, shown, 1))
    if table.single:
        n_rows = exp.func("COUNT", exp.Star())
        named.append(("rows (sqlnb writes one a model)", n_rows, exp.cast(n_rows, "VARCHAR"), 1))
    sums = [exp.Sum(this=column(name)) for name in table.amounts]
    query = exp.select(
        *(c.as_(f"c{i}") for i, (_, c) in enumerate(checks)),
        *(total.as_(f"s{i}") for i, total in enumerate(sums)),
        *(e.as_(f"n{i}_{j}") for i, (_, *es, _) in enumerate(named) for j, e in enumerate(es)),
    ).from_(source)
    found = db.fetch(query)[0]
    for (what, _), n in zip(checks, found):
        if n:
            return f"{int(n)} {what}"
    beyond = found[len(checks) + len(sums) :]
    for i, (what, _, _, most) in enumerate(named):
        n, value = beyond[2 * i], beyond[2 * i + 1]
        if n is not None and int(n) > most:
            return f"{int(n)} {what}, e.g. {value!r}"
    for name, total in zip(table.amounts, found[len(checks) :]):
        if total is not None and not math.isfinite(float(total)):
            return f"values of {name} whose sum is not a finite number (it overflows)"
    for key in table.keys if unique else ():
        repeated = exp.select(exp.func("COUNT", exp.Star())).from_(
            exp.select(*key)
            .from_(source.copy())
            .group_by(*key)
            .having(exp.func("COUNT", exp.Star()) > 1)
            .subquery("r")
        )
        n = db.fetch(repeated)[0][0]
        if n:
            return f"{int(n)} repeated values of ({', '.join(key)})"
    return None


def _first(condition: exp.Expr, name: str) -> tuple[exp.Expr, exp.Expr]:
    """How many rows meet ``condition``, and the least of their values of column ``name``
    (as text): what a message names."""
    column = templates.col(name)
    text = exp.cast(column, "VARCHAR")
    count = exp.Sum(this=exp.Case().when(condition, exp.convert(1)).else_(exp.convert(0)))
    return count, exp.Min(this=exp.Case().when(condition.copy(), text))
