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
      WHEN COALESCE(p.c0, 0) + CAST(1.0 AS DOUBLE PRECISION) > 0
      AND COALESCE(s.t0, 0) + CAST(1.0 AS DOUBLE PRECISION) * s.vocabulary > 0
      THEN LN(COALESCE(p.c0, 0) + CAST(1.0 AS DOUBLE PRECISION)) - s.h0
    END AS w0,
    CASE
      WHEN COALESCE(p.c1, 0) + CAST(1.0 AS DOUBLE PRECISION) > 0
      AND COALESCE(s.t1, 0) + CAST(1.0 AS DOUBLE PRECISION) * s.vocabulary > 0
      THEN LN(COALESCE(p.c1, 0) + CAST(1.0 AS DOUBLE PRECISION)) - s.h1
    END AS w1,
    CAST(NULL AS DOUBLE PRECISION) AS w2,
    CAST(NULL AS DOUBLE PRECISION) AS w3,
    CAST(NULL AS DOUBLE PRECISION) AS w4,
    CAST(NULL AS DOUBLE PRECISION) AS w5,
    CAST(NULL AS DOUBLE PRECISION) AS w6,
    CAST(NULL AS DOUBLE PRECISION) AS w7
  FROM sqlnb_pivot AS p
  CROSS JOIN sqlnb_blocks AS s
) AS r;
