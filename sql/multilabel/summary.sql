-- Multi-label evaluation's summary, from sql/multilabel/pairs.sql and per_label.sql: micro-F1
-- (over every pair), macro-F1 (the labels' mean), samples-F1 (the documents' mean), Hamming loss
-- (the share of wrong pairs) and subset accuracy (the share of documents with every label right),
-- as scikit-learn's metrics (an undefined F1 is 0).
SELECT
  (SELECT COUNT(*) FROM $documents AS d) AS n_docs,
  (
    SELECT CASE WHEN 2 * SUM(l.tp) + SUM(l.fp) + SUM(l.fn) > 0
      THEN CAST(2 AS DOUBLE) * SUM(l.tp) / (2 * SUM(l.tp) + SUM(l.fp) + SUM(l.fn)) ELSE 0 END
    FROM $per_label AS l
  ) AS micro_f1,
  (SELECT AVG(l.f1) FROM $per_label AS l) AS macro_f1,
  (SELECT AVG(d.f1) FROM $documents AS d) AS samples_f1,
  (SELECT AVG(CAST(ABS(q.predicted - q.actual) AS DOUBLE)) FROM $pairs AS q) AS hamming_loss,
  (SELECT AVG(CASE WHEN d.wrong = 0 THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END) FROM $documents AS d) AS subset_accuracy
