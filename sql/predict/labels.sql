-- predict's output: one row per document with the predicted label (cast back to the type of the
-- training labels: $label is c.label cast to it) and its posterior probability.
SELECT
  p.doc_id AS doc_id,
  $label AS label,
  p.proba AS proba
FROM $posterior AS p
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = p.class_id
WHERE p.rn = 1
