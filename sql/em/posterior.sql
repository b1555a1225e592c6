-- The E-step: per unlabeled document and class, the class's label ($label: c.label cast to the
-- training labels' type), its posterior (the responsibility) and the document's log-evidence
-- ln sum_k exp(jll_k) = jll - log_proba (NULL for a class of probability 0).
SELECT
  p.doc_id AS doc_id,
  $label AS label,
  COALESCE(p.proba, CAST(0 AS DOUBLE)) AS proba,
  p.jll - p.log_proba AS evidence
FROM $posterior AS p
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = p.class_id
