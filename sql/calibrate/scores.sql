-- The held-out documents a calibration is fitted on, per (document, class): the class's joint
-- log-likelihood less the document's largest (s <= 0; NULL = -infinity), its uncalibrated
-- posterior and whether it is the document's true label (labels compared as text).
SELECT
  p.doc_id AS doc_id,
  p.class_id AS class_id,
  p.jll - MAX(p.jll) OVER (PARTITION BY p.doc_id) AS s,
  COALESCE(p.proba, CAST(0 AS DOUBLE)) AS proba,
  CASE WHEN c.label = CAST(y.label AS VARCHAR) THEN 1 ELSE 0 END AS y
FROM $posterior AS p
JOIN $truth AS y
  ON y.doc_id = p.doc_id
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = p.class_id
