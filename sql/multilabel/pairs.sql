-- Multi-label evaluation: every (document, label) of the model's labels, whether it is
-- predicted (binary probability at least $threshold) and whether it is true ($truth: the
-- documents' labels; labels the model does not know are left out, as a MultiLabelBinarizer
-- fitted on the training labels leaves them out).
SELECT
  p.doc_id AS doc_id,
  c.label AS label,
  CASE WHEN p.proba >= $threshold THEN 1 ELSE 0 END AS predicted,
  CASE WHEN t.label IS NULL THEN 0 ELSE 1 END AS actual
FROM $posterior AS p
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = p.class_id
LEFT JOIN (SELECT DISTINCT x.doc_id AS doc_id, CAST(x.label AS VARCHAR) AS label FROM $truth AS x) AS t
  ON t.doc_id = p.doc_id AND t.label = c.label
