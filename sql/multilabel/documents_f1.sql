-- Multi-label evaluation per document, from sql/multilabel/pairs.sql: its F1 (0 where it has
-- neither a true nor a predicted label, as scikit-learn's zero_division) and its wrong pairs.
SELECT
  q.doc_id AS doc_id,
  CASE WHEN SUM(q.predicted) + SUM(q.actual) > 0
    THEN CAST(2 AS DOUBLE) * SUM(q.predicted * q.actual) / (SUM(q.predicted) + SUM(q.actual)) ELSE 0 END AS f1,
  SUM(ABS(q.predicted - q.actual)) AS wrong
FROM $pairs AS q
GROUP BY q.doc_id
