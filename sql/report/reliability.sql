-- The reliability diagram: the predicted class's probability (the confidence) in 10 equal bins
-- of [0, 1] (1 falls in the last), with per bin the documents, their mean confidence and the
-- share of them whose prediction is right. Empty bins have no row.
SELECT
  b.bin AS bin,
  COUNT(*) AS n_docs,
  AVG(b.confidence) AS confidence,
  AVG(b.correct) AS accuracy
FROM (
  SELECT
    CASE
      WHEN s.proba >= 1 THEN 9
      ELSE CAST(FLOOR(s.proba * CAST(10 AS DOUBLE)) AS INTEGER)
    END AS bin,
    s.proba AS confidence,
    s.is_true AS correct
  FROM $scores AS s
  WHERE s.rn = 1
) AS b
GROUP BY b.bin
ORDER BY b.bin
