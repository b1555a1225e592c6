-- sql/multilabel/classified.sql in ClickHouse's dialect, whose groupArray keeps no order: the
-- (class_id, label) tuples at or above {threshold} gathered, sorted by class_id (class order,
-- the labels' sorted order) and their labels kept; an empty array when none. proba is the
-- largest binary probability.
SELECT
  p.doc_id AS doc_id,
  arrayMap(
    pair -> tupleElement(pair, 2),
    arraySort(
      pair -> tupleElement(pair, 1),
      groupArrayIf((p.class_id, {label: String}), p.proba >= {threshold: String})
    )
  ) AS label,
  max(p.proba) AS proba
FROM {posterior: Identifier} AS p
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = {model: String}) AS c
  ON c.class_id = p.class_id
GROUP BY p.doc_id
