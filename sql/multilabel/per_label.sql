-- Multi-label evaluation per label, from sql/multilabel/pairs.sql: true positives, false
-- positives, false negatives, support, and precision, recall and F1 (0 where undefined, as
-- scikit-learn's zero_division).
SELECT
  g.label AS label,
  g.tp AS tp,
  g.fp AS fp,
  g.fn AS fn,
  g.tp + g.fn AS support,
  CASE WHEN g.tp + g.fp > 0 THEN CAST(g.tp AS DOUBLE) / (g.tp + g.fp) ELSE 0 END AS precision,
  CASE WHEN g.tp + g.fn > 0 THEN CAST(g.tp AS DOUBLE) / (g.tp + g.fn) ELSE 0 END AS recall,
  CASE WHEN 2 * g.tp + g.fp + g.fn > 0 THEN CAST(2 AS DOUBLE) * g.tp / (2 * g.tp + g.fp + g.fn) ELSE 0 END AS f1
FROM (
  SELECT
    q.label AS label,
    SUM(q.predicted * q.actual) AS tp,
    SUM(q.predicted * (1 - q.actual)) AS fp,
    SUM((1 - q.predicted) * q.actual) AS fn
  FROM $pairs AS q
  GROUP BY q.label
) AS g
ORDER BY g.label
