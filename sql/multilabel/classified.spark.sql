-- sql/multilabel/classified.sql in Spark's dialect, whose COLLECT_LIST keeps no order: the
-- (class_id, label) pairs at or above $threshold gathered, sorted (by class_id: class order, the
-- labels' sorted order) and their labels kept; an empty array when none (COLLECT_LIST of no
-- row). proba is the largest binary probability.
SELECT
  p.doc_id AS doc_id,
  TRANSFORM(
    ARRAY_SORT(COLLECT_LIST(STRUCT(p.class_id AS k, $label AS x)) FILTER (WHERE p.proba >= $threshold)),
    e -> e.x
  ) AS label,
  MAX(p.proba) AS proba
FROM $posterior AS p
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = p.class_id
GROUP BY p.doc_id
