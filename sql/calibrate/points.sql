-- Isotonic calibration's data: per calibrated class ($kept), each distinct uncalibrated
-- probability with its number of documents and how many of them are of that class, in
-- increasing order.
SELECT
  c.class_id AS class_id,
  c.proba AS proba,
  COUNT(*) AS n,
  SUM(c.y) AS positives
FROM $scores AS c
WHERE $kept
GROUP BY c.class_id, c.proba
ORDER BY c.class_id, c.proba
