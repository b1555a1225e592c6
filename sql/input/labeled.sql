-- Labeled documents with their class and sample weight: class_id numbers the distinct labels in
-- sorted order of the labels' own type (0, 1, ...), as scikit-learn's classes_.
SELECT
  l.doc_id AS doc_id,
  l.label AS label,
  l.weight AS weight,
  DENSE_RANK() OVER (ORDER BY l.label) - 1 AS class_id
FROM $labels AS l
