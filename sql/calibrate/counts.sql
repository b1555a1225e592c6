-- Per class: the calibration documents of that class (n+) and the others (n-).
SELECT
  c.class_id AS class_id,
  SUM(c.y) AS positives,
  COUNT(*) - SUM(c.y) AS negatives
FROM $scores AS c
GROUP BY c.class_id
ORDER BY c.class_id
