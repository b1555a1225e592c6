INSERT INTO "sqlnb_scoring" (
  model,
  word,
  base,
  w0,
  w1,
  w2,
  w3,
  w4,
  w5,
  w6,
  w7
)
WITH sqlnb_pivot AS (
@pivot
), sqlnb_blocks AS (
@blocks
)
SELECT
  *
FROM (
  SELECT
    'spam' AS model,
    p.word AS word,
    s.base AS base,
    CASE
      WHEN FALSE
      THEN (
        LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(p.c0, 0)) - s.h1
      ) / SUM(LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(p.c0, 0)) - s.h2) OVER (PARTITION BY s.base)
      ELSE s.h0 - LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(p.c0, 0))
    END AS w0,
    CASE
      WHEN FALSE
      THEN (
        LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(p.c1, 0)) - s.h4
      ) / SUM(LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(p.c1, 0)) - s.h5) OVER (PARTITION BY s.base)
      ELSE s.h3 - LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(p.c1, 0))
    END AS w1,
    CAST(NULL AS Nullable(Float64)) AS w2,
    CAST(NULL AS Nullable(Float64)) AS w3,
    CAST(NULL AS Nullable(Float64)) AS w4,
    CAST(NULL AS Nullable(Float64)) AS w5,
    CAST(NULL AS Nullable(Float64)) AS w6,
    CAST(NULL AS Nullable(Float64)) AS w7
  FROM sqlnb_pivot AS p
  CROSS JOIN sqlnb_blocks AS s
) AS r;
