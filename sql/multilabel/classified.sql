-- A multi-label model's labels as one value per document (classify --update, the SQL
-- functions of PostgreSQL and SQLite): the labels whose binary probability ($posterior:
-- sql/multilabel/posterior.sql) is at or above $threshold, as a list in class order (the
-- labels' sorted order; $label is c.label cast to the type of the training labels), $empty
-- (an empty list of that type) when none; proba is the largest binary probability.
SELECT
  p.doc_id AS doc_id,
  COALESCE(ARRAY_AGG($label ORDER BY p.class_id) FILTER (WHERE p.proba >= $threshold), $empty) AS label,
  MAX(p.proba) AS proba
FROM $posterior AS p
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = p.class_id
GROUP BY p.doc_id
