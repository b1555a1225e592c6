-- Multi-label predict's output: one row per (document, label) whose binary probability is at
-- least $threshold ($label is c.label cast to the type of the training labels).
SELECT
  p.doc_id AS doc_id,
  $label AS label,
  p.proba AS proba
FROM $posterior AS p
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = p.class_id
WHERE p.proba >= $threshold
