"""Evaluating a multi-label model (:mod:`sqlnb.multilabel`): micro-, macro- and samples-F1,
Hamming loss and subset accuracy over the (document, label) pairs of the model's labels
(``sql/multilabel/pairs.sql``), with precision, recall and F1 per label: scikit-learn's
``f1_score`` (average micro, macro, samples), ``hamming_loss`` and ``accuracy_score`` on
``MultiLabelBinarizer`` indicators of the model's labels."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlnb import pipeline, templates
from sqlnb.inputs import Labels, Source, as_source, labels_for
from sqlnb.multilabel import threshold_for

if TYPE_CHECKING:
    from sqlnb.catalog import Entry
    from sqlnb.engine import Database

PAIRS, PER_LABEL, DOCUMENTS = "sqlnb_pairs", "sqlnb_per_label", "sqlnb_documents_f1"
COLUMNS = ("label", "precision", "recall", "f1", "support")
SUMMARY = ("micro_f1", "macro_f1", "samples_f1", "hamming_loss", "subset_accuracy")


def queries(
    db: Database,
    entry: Entry,
    data: str | Source,
    labels: str | Labels | None = None,
    *,
    threshold: float | None = None,
) -> tuple[exp.Select, exp.Select]:
    """(summary, per label) of ``entry`` on the labeled documents of ``data``."""
    source = as_source(data)
    the_labels = replace(labels_for(source, labels), several=True)
    evaluated = pipeline.evaluation_pipeline(db, entry, source, the_labels)
    pairs = templates.select(
        "multilabel/pairs.sql",
        posterior=exp.to_table(pipeline.POSTERIOR),
        truth=exp.to_table(pipeline.TRUTH),
        model=exp.convert(entry.name),
        threshold=templates.number(threshold_for(entry, threshold)),
    )
    per_label = templates.select("multilabel/per_label.sql", pairs=exp.to_table(PAIRS))
    documents = templates.select("multilabel/documents_f1.sql", pairs=exp.to_table(PAIRS))
    summary = templates.select(
        "multilabel/summary.sql",
        documents=exp.to_table(DOCUMENTS),
        per_label=exp.to_table(PER_LABEL),
        pairs=exp.to_table(PAIRS),
    )
    ctes = [*evaluated.ctes, (PAIRS, pairs), (PER_LABEL, per_label), (DOCUMENTS, documents)]
    return (
        pipeline.Pipeline(ctes).select(summary),
        pipeline.Pipeline([(n, q.copy()) for n, q in ctes]).select(
            exp.select(*COLUMNS).from_(PER_LABEL).order_by("label")
        ),
    )


def evaluate(
    db: Database,
    entry: Entry,
    data: str | Source,
    labels: str | Labels | None = None,
    *,
    threshold: float | None = None,
) -> dict[str, Any]:
    """The multi-label metrics (keys :data:`SUMMARY`, ``n_docs``, ``threshold``) and
    ``per_label`` {label: precision, recall, f1, support}."""
    summary, per_label = queries(db, entry, data, labels, threshold=threshold)
    db.stage("scoring")
    head = db.fetch_dicts(summary)[0]
    found: dict[str, Any] = {"n_docs": int(head["n_docs"]), "multi_label": True}
    found["threshold"] = threshold_for(entry, threshold)
    found.update({k: float(head[k]) for k in SUMMARY})
    found["per_label"] = {
        str(r["label"]): {k: r[k] for k in ("precision", "recall", "f1")}
        | {"support": int(r["support"])}
        for r in db.fetch_dicts(per_label)
    }
    return found
