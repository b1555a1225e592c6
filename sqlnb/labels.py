"""Label modes: steps after the posterior, written once for every path that reads it.

Hierarchical labels (``train --hierarchy SEP``): the model is the flat model over the leaf
labels (paths such as ``system/net/mail``); the separator and a default confidence are stored
with it (in its params, so versions and model files keep them). predict walks the tree from
the root (``sql/labels/nodes.sql``, ``sql/labels/walk.sql``); evaluate adds the accuracy at
each depth (``sql/labels/depths.sql``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import catalog, settings, templates
from sqlnb.errors import SqlnbError
from sqlnb.inputs import type_family

if TYPE_CHECKING:
    from sqlnb.catalog import Entry
    from sqlnb.engine import Database

# The CTEs of the walk: the tree's paths, its (node, ancestor) pairs, the nodes' probabilities.
PATHS, ANCESTORS, NODES = "sqlnb_paths", "sqlnb_ancestors", "sqlnb_nodes"
WALKED = "sqlnb_walked_rows"  # the rows form's walk (:func:`walked_rows`)
CHUNK = 400  # literal rows per UNION ALL (SQLite refuses a compound SELECT of more than 500)


def stored(hierarchy: str | None, confidence: float | None, label_type: str) -> dict[str, Any]:
    """The params a hierarchical model stores: its separator and default confidence (checked;
    none without ``hierarchy``)."""
    if hierarchy is None:
        if confidence is not None:
            raise SqlnbError("--confidence goes with --hierarchy (labels that form a tree)")
        return {}
    if not isinstance(hierarchy, str) or hierarchy == "":
        raise SqlnbError(f"--hierarchy must be a non-empty separator, not {hierarchy!r}")
    if type_family(label_type) != "text":
        raise SqlnbError(f"--hierarchy needs text labels (paths), not {label_type} labels")
    return {"hierarchy": hierarchy, "confidence": checked(confidence)}


def checked(confidence: float | None) -> float:
    """A confidence between 0 and 1 (the default where None)."""
    value = settings.CONFIDENCE.given(confidence)
    if value > 1:
        raise settings.CONFIDENCE.refuse(value, settings.CONFIDENCE.message)
    return float(value)


def confidence_for(entry: Entry, confidence: float | None) -> float | None:
    """The confidence of a walk of ``entry``: ``confidence``, else the stored one; None for a
    flat model (refused if a confidence is given)."""
    if not entry.params.get("hierarchy"):
        if confidence is not None:
            raise SqlnbError(
                f"model {entry.name!r} has flat labels: --confidence is for a model trained "
                "with --hierarchy"
            )
        return None
    return checked(confidence if confidence is not None else entry.params.get("confidence"))


def paths(db: Database, entry: Entry) -> exp.Query:
    """(class_id, leaf, node, parent, depth): every node on the path of each class of a
    hierarchical model, as a relation of literals (the labels are values, quoted by sqlglot):
    one-row SELECTs in UNION ALLs of at most :data:`CHUNK` (SQLite's limit of a compound
    SELECT is 500; VALUES with named columns is not SQLite's)."""
    separator = str(entry.params["hierarchy"])
    columns = ("class_id", "leaf", "node", "parent", "depth")
    rows: list[exp.Select] = []
    for c in catalog.classes(db, entry.name):
        label = str(c["label"])
        parts = label.split(separator)
        for depth in range(1, len(parts) + 1):
            node, parent = separator.join(parts[:depth]), separator.join(parts[: depth - 1])
            values = (int(c["class_id"]), label, node, parent, depth)
            rows.append(exp.select(*(exp.convert(v).as_(n) for v, n in zip(values, columns))))
    chunks: list[exp.Query] = []
    for start in range(0, len(rows), CHUNK):
        chunk: exp.Query = rows[start]
        for row in rows[start + 1 : start + CHUNK]:
            chunk = exp.union(chunk, row, distinct=False)
        chunks.append(exp.select(*columns).from_(chunk.subquery(f"c{start // CHUNK}")))
    found = chunks[0]
    for more in chunks[1:]:
        found = exp.union(found, more, distinct=False)
    return exp.select(*columns).from_(found.subquery("v"))


def walk_ctes(
    db: Database | None, entry: Entry | None, posterior: str, given: exp.Query | None = None
) -> list[tuple[str, exp.Query]]:
    """The CTEs of the walk over the posterior relation ``posterior``: paths (:func:`paths`
    of ``entry``, or ``given``), ancestors, nodes."""
    if given is None:
        assert db is not None and entry is not None
        given = paths(db, entry)
    table, paths_ = exp.to_table, exp.to_table(PATHS)
    return [
        (PATHS, given),
        (ANCESTORS, templates.select("labels/ancestors.sql", paths=paths_)),
        (NODES, templates.select("labels/nodes.sql", posterior=table(posterior), paths=paths_)),
    ]


def listed(row: exp.Expr, flat: dict[str, exp.Expr], probas: exp.Expr) -> dict[str, exp.Expr]:
    """DuckDB's sqlnb_classify and sqlnb_proba where a model may have labels that form a tree:
    over the lookup row ``row`` (:mod:`sqlnb.functions.lists`), the walk at the model's
    confidence of the posterior list ``probas`` for a model with a separator, else the ``flat``
    label and proba (``sql/labels/listed_*.sql``, the walk itself ``sql/labels/walk.sql``)."""
    from sqlnb.functions.shape import MODEL

    scored = templates.select("labels/scored.sql", row=row, probas=probas, model=MODEL, **flat)
    name = exp.to_table("sqlnb_scored")
    ctes: list[tuple[str, exp.Query]] = [
        ("sqlnb_scored", scored),
        ("sqlnb_listed", templates.select("labels/listed_posterior.sql", scored=name)),
    ]
    ctes += walk_ctes(
        None, None, "sqlnb_listed", templates.select("labels/listed_paths.sql", scored=name)
    )
    ctes.append(("sqlnb_walked", walk(exp.select("confidence").from_(name))))
    final = templates.select(
        "labels/listed_label.sql", scored=name, walked=exp.to_table("sqlnb_walked")
    )
    for cte, query in ctes:
        final = final.with_(cte, as_=query, copy=False)
    return {c: exp.select(c).from_(final.subquery("h")).subquery() for c in ("label", "proba")}


def walked(flat: dict[str, exp.Expr], model: dict[str, exp.Expr]) -> dict[str, exp.Expr]:
    """ClickHouse's sqlnb_classify and sqlnb_proba where a model may have labels that form a
    tree: the walk over arrays (``sql/labels/walked_lists.clickhouse.sql``: its lambdas take no
    subquery) of the posterior list ``flat["probas"]`` at the model's confidence, for a model
    with a separator (``model``: its labels, hierarchy and confidence), else ``flat``'s label
    and proba."""
    (pair,) = templates.expressions(
        "labels/walked_lists.clickhouse.sql",
        labels=model["labels"],
        probas=flat["probas"],
        sep=model["hierarchy"],
        confidence=model["confidence"],
    ).values()
    tree = model["hierarchy"].copy().neq(exp.convert(""))
    return {
        name: exp.If(
            this=tree.copy(),
            true=exp.Anonymous(this="tupleElement", expressions=[pair.copy(), exp.convert(i)]),
            false=flat[name],
        )
        for i, name in ((1, "label"), (2, "proba"))
    }


def walk(confidence: float | exp.Query) -> exp.Select:
    """(doc_id, label, proba, depth): the walk over :func:`walk_ctes` at ``confidence`` (a
    number, or a query of one row: its column confidence)."""
    if not isinstance(confidence, exp.Query):
        confidence = exp.select(templates.number(confidence).as_("confidence"))
    return templates.select(
        "labels/walk.sql",
        nodes=exp.to_table(NODES),
        ancestors=exp.to_table(ANCESTORS),
        confidence=confidence.subquery(),
    )


def walked_rows(posterior: str) -> list[tuple[str, exp.Query]]:
    """The rows form of any model (Spark's SQL functions): the CTEs of the walk over
    ``posterior`` at the confidence the model sqlnb_model stores
    (``sql/labels/stored_confidence.sql``), its tree read from the catalog
    (``sql/labels/tree.sql``): a flat model is a tree of one level walked at 0, its most
    probable class. The last CTE, :data:`WALKED`, is (doc_id, label, proba, depth)."""
    from sqlnb.functions.shape import MODEL

    tree = exp.select("class_id", "leaf", "node", "parent", "depth").from_(
        templates.select("labels/tree.sql").subquery("t")
    )
    mine = tree.where(exp.column("model", "t").eq(MODEL.copy()))
    stored = templates.select("labels/stored_confidence.sql")
    return [*walk_ctes(None, None, posterior, mine), (WALKED, walk(stored))]


def depths(truth: str, walked: str) -> exp.Select:
    """(depth, n_docs, accuracy) of the walk ``walked`` against the labels ``truth``."""
    return templates.select(
        "labels/depths.sql",
        truth=exp.to_table(truth),
        walked=exp.to_table(walked),
        paths=exp.to_table(PATHS),
        ancestors=exp.to_table(ANCESTORS),
    )
