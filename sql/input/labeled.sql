-- Labeled documents with their class and sample weight ($classes: the labels numbered, see
-- sql/input/classes.sql). The labels are ranked among themselves (K rows) and joined back,
-- rather than ranking every document.
SELECT
  l.doc_id AS doc_id,
  l.label AS label,
  l.weight AS weight,
  c.class_id AS class_id
FROM $labels AS l
JOIN $classes AS c
  ON c.label = l.label
