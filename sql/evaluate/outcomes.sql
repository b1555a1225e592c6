-- One row per labeled document: its true label and the predicted one (both as text, as stored
-- in sqlnb_classes) and the posterior probability of the true label (0 if the model does not
-- know that label).
SELECT
  y.doc_id AS doc_id,
  CAST(y.label AS VARCHAR) AS true_label,
  c.label AS predicted,
  COALESCE(t.proba, CAST(0 AS DOUBLE)) AS p_true
FROM $truth AS y
JOIN $posterior AS p
  ON p.doc_id = y.doc_id AND p.rn = 1
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = p.class_id
LEFT JOIN (
  SELECT q.doc_id AS doc_id, k.label AS label, q.proba AS proba
  FROM $posterior AS q
  JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS k
    ON k.class_id = q.class_id
) AS t
  ON t.doc_id = y.doc_id AND t.label = CAST(y.label AS VARCHAR)
