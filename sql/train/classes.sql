-- Stored counts: documents per class (the sum of their sample weights).
INSERT INTO sqlnb_classes (model, class_id, label, n_docs)
SELECT
  $model AS model,
  l.class_id AS class_id,
  CAST(l.label AS VARCHAR) AS label,
  SUM(l.weight) AS n_docs
FROM $labeled AS l
GROUP BY l.class_id, l.label
