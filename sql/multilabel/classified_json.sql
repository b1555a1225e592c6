-- sql/multilabel/classified.sql where the engine has no list type (SQLite): the labels at or
-- above $threshold as the text of a JSON array in class order ('["billing","urgent"]', '[]'
-- when none), built by JSON_GROUP_ARRAY as a window over each document's labels in class
-- order (SQLite's aggregates take no ORDER BY before 3.44); proba is the largest binary
-- probability.
SELECT
  w.doc_id AS doc_id,
  MAX(w.labels) AS label,
  MAX(w.proba) AS proba
FROM (
  SELECT
    p.doc_id AS doc_id,
    p.proba AS proba,
    JSON_GROUP_ARRAY($label) FILTER (WHERE p.proba >= $threshold) OVER (
      PARTITION BY p.doc_id
      ORDER BY p.class_id
      ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING
    ) AS labels
  FROM $posterior AS p
  JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
    ON c.class_id = p.class_id
) AS w
GROUP BY w.doc_id
