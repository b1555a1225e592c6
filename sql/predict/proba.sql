-- predict --proba's output: one row per (document, class) with the log posterior and posterior.
-- ($label is c.label cast to the type of the training labels.)
SELECT
  p.doc_id AS doc_id,
  $label AS label,
  p.log_proba AS log_proba,
  p.proba AS proba
FROM $posterior AS p
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = p.class_id
