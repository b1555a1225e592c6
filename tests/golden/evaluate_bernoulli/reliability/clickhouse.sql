SELECT
  b.bin AS bin,
  COUNT(*) AS n_docs,
  AVG(b.confidence) AS confidence,
  AVG(b.correct) AS accuracy
FROM (
  SELECT
    CASE
      WHEN o.confidence >= 1
      THEN 15
      WHEN o.confidence <= 0
      THEN 0
      ELSE CAST(CEIL(o.confidence * CAST(15 AS Nullable(Float64))) AS Nullable(Int32))
    END AS bin,
    o.confidence AS confidence,
    CASE
      WHEN o.true_label = o.predicted
      THEN CAST(1 AS Nullable(Float64))
      ELSE CAST(0 AS Nullable(Float64))
    END AS correct
  FROM sqlnb_outcomes_xxxxxxxx AS o
) AS b
GROUP BY
  b.bin
ORDER BY
  b.bin;
