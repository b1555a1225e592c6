-- predict --costs' output: one row per document with its label of least expected cost ($label
-- is c.label cast to the type of the training labels), that label's posterior probability and
-- its expected cost.
SELECT
  d.doc_id AS doc_id,
  $label AS label,
  p.proba AS proba,
  d.expected_cost AS expected_cost
FROM $decisions AS d
JOIN $posterior AS p
  ON p.doc_id = d.doc_id AND p.class_id = d.class_id
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = d.class_id
WHERE d.rn = 1
