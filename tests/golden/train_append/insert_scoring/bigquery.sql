INSERT INTO `sqlnb_scoring` (
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
      WHEN COALESCE(p.c0, 0) + CAST(1.0 AS FLOAT64) > 0
      AND s.n0 + CAST(1.0 AS FLOAT64) + CAST(1.0 AS FLOAT64) > 0
      THEN LN(COALESCE(p.c0, 0) + CAST(1.0 AS FLOAT64)) - s.h0
    END AS w0,
    CASE
      WHEN COALESCE(p.c1, 0) + CAST(1.0 AS FLOAT64) > 0
      AND s.n1 + CAST(1.0 AS FLOAT64) + CAST(1.0 AS FLOAT64) > 0
      THEN LN(COALESCE(p.c1, 0) + CAST(1.0 AS FLOAT64)) - s.h1
    END AS w1,
    CAST(NULL AS FLOAT64) AS w2,
    CAST(NULL AS FLOAT64) AS w3,
    CAST(NULL AS FLOAT64) AS w4,
    CAST(NULL AS FLOAT64) AS w5,
    CAST(NULL AS FLOAT64) AS w6,
    CAST(NULL AS FLOAT64) AS w7
  FROM sqlnb_pivot AS p
  CROSS JOIN sqlnb_blocks AS s
  UNION ALL
  SELECT
    'spam' AS model,
    p.word AS word,
    -1 - s.base AS base,
    CASE
      WHEN s.n0 - COALESCE(p.c0, 0) + CAST(1.0 AS FLOAT64) > 0
      AND s.n0 + CAST(1.0 AS FLOAT64) + CAST(1.0 AS FLOAT64) > 0
      THEN LN(s.n0 - COALESCE(p.c0, 0) + CAST(1.0 AS FLOAT64)) - s.h2
    END AS w0,
    CASE
      WHEN s.n1 - COALESCE(p.c1, 0) + CAST(1.0 AS FLOAT64) > 0
      AND s.n1 + CAST(1.0 AS FLOAT64) + CAST(1.0 AS FLOAT64) > 0
      THEN LN(s.n1 - COALESCE(p.c1, 0) + CAST(1.0 AS FLOAT64)) - s.h3
    END AS w1,
    CAST(NULL AS FLOAT64) AS w2,
    CAST(NULL AS FLOAT64) AS w3,
    CAST(NULL AS FLOAT64) AS w4,
    CAST(NULL AS FLOAT64) AS w5,
    CAST(NULL AS FLOAT64) AS w6,
    CAST(NULL AS FLOAT64) AS w7
  FROM sqlnb_pivot AS p
  CROSS JOIN sqlnb_blocks AS s
) AS r;
