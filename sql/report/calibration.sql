-- Calibration summary: the multi-class Brier score, the mean over documents of
-- sum over classes of (p_k - [y = k])^2 (a true label the model never saw adds 1), and the
-- expected calibration error of the $reliability bins: sum of n_b |accuracy_b - confidence_b| / N.
SELECT
  br.n_docs AS n_docs,
  br.brier AS brier,
  ce.ece AS ece
FROM (
  SELECT
    COUNT(*) AS n_docs,
    AVG(d.score) AS brier
  FROM (
    SELECT
      s.doc_id AS doc_id,
      SUM((s.proba - s.is_true) * (s.proba - s.is_true))
        + CAST(1 AS DOUBLE) - MAX(s.is_true) AS score
    FROM $scores AS s
    GROUP BY s.doc_id
  ) AS d
) AS br
CROSS JOIN (
  SELECT
    SUM(CAST(r.n_docs AS DOUBLE) * ABS(r.accuracy - r.confidence))
      / SUM(CAST(r.n_docs AS DOUBLE)) AS ece
  FROM $reliability AS r
) AS ce
