"""A multi-label model's labels as one value per document (:func:`classified`): what
``classify --update`` writes and PostgreSQL's and SQLite's SQL functions return, a step after
the pipeline's multi-label posterior (:mod:`sqlnb.multilabel`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import multilabel, templates
from sqlnb.pipeline import POSTERIOR, Pipeline, label

if TYPE_CHECKING:
    from sqlnb.catalog import Entry
    from sqlnb.engine import Database
    from sqlnb.inputs import Source


def classified(
    db: Database, entry: Entry, data: str | Source, threshold: float | None = None, **options: Any
) -> exp.Select:
    """(doc_id, label, proba), one row per document of a multi-label model: its labels at or
    above ``threshold`` (the stored one by default) as one value
    (:func:`sqlnb.multilabel.list_type`, in class order, empty when none) and its largest
    binary probability (``sql/multilabel/classified.sql``; ``classified_json.sql`` where the
    engine has no list type; Spark's and ClickHouse's own ``classified.<dialect>.sql``, whose
    aggregates keep no order). ``options`` are :meth:`Pipeline.build`'s. classify --update
    writes it; PostgreSQL's and SQLite's SQL functions run it for one text."""
    multilabel.refuse_flat(entry)
    for option in ("priors", "costs"):
        if options.pop(option, None) is not None:
            multilabel.refuse(entry, f"--{option}")
    pipeline = Pipeline.build(db, entry, data, **options)
    found = multilabel.list_type(db, entry.label_type)  # (refused where the engine has none yet)
    json_text = db.dialect.label_lists == "json"
    name = "multilabel/classified" + ("_json" if json_text else "") + ".sql"
    name = templates.for_dialect(name, options.get("dialect") or db.dialect.name)
    bindings: dict[str, Any] = {
        "posterior": exp.to_table(POSTERIOR),  # (this mode's: sql/multilabel/posterior.sql)
        "label": label(entry),
        "model": options.get("name") or exp.convert(entry.name),
        "threshold": templates.number(multilabel.threshold_for(entry, threshold)),
    }
    if "empty" in templates.placeholders(name):
        bindings["empty"] = exp.cast(exp.Array(expressions=[]), found)
    final = templates.select(name, **bindings)
    return pipeline.select(final)
