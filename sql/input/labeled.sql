-- Labeled documents with their class and sample weight: class_id numbers the distinct labels in
-- sorted order of the labels' own type (0, 1, ...), as scikit-learn's classes_. The labels are
-- ranked among themselves (K rows) and joined back, rather than ranking every document.
SELECT
  l.doc_id AS doc_id,
  l.label AS label,
  l.weight AS weight,
  c.class_id AS class_id
FROM $labels AS l
JOIN (
  SELECT v.label AS label, DENSE_RANK() OVER (ORDER BY v.label) - 1 AS class_id
  FROM (SELECT DISTINCT x.label AS label FROM $labels AS x) AS v
) AS c
  ON c.label = l.label
