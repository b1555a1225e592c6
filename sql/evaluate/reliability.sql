-- The reliability of the predicted class's probability (the confidence) in 15 equal-width,
-- right-closed bins: a confidence p falls in bin ceil(15 p) ((b - 1)/15 < p <= b/15; 0 in bin 0).
-- Per bin the documents, their mean confidence and the share of them predicted right. Empty
-- bins have no row.
SELECT
  b.bin AS bin,
  COUNT(*) AS n_docs,
  AVG(b.confidence) AS confidence,
  AVG(b.correct) AS accuracy
FROM (
  SELECT
    CASE
      WHEN o.confidence >= 1 THEN 15
      WHEN o.confidence <= 0 THEN 0
      ELSE CAST(CEIL(o.confidence * CAST(15 AS DOUBLE)) AS INTEGER)
    END AS bin,
    o.confidence AS confidence,
    CASE WHEN o.true_label = o.predicted THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END
      AS correct
  FROM $outcomes AS o
) AS b
GROUP BY b.bin
ORDER BY b.bin
