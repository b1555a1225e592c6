WITH sqlnb_pivot AS (
@pivot
), sqlnb_blocks AS (
@blocks
)
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
SELECT
  *
FROM (
  SELECT
    'spam' AS model,
    p.word AS word,
    s.base AS base,
    CASE
      WHEN COALESCE(p.c0, 0) + CAST(1.0 AS DOUBLE) > 0
      AND s.n0 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
      THEN LN(COALESCE(p.c0, 0) + CAST(1.0 AS DOUBLE)) - s.h0
    END AS w0,
    CASE
      WHEN COALESCE(p.c1, 0) + CAST(1.0 AS DOUBLE) > 0
      AND s.n1 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
      THEN LN(COALESCE(p.c1, 0) + CAST(1.0 AS DOUBLE)) - s.h1
    END AS w1,
    CAST(NULL AS DOUBLE) AS w2,
    CAST(NULL AS DOUBLE) AS w3,
    CAST(NULL AS DOUBLE) AS w4,
    CAST(NULL AS DOUBLE) AS w5,
    CAST(NULL AS DOUBLE) AS w6,
    CAST(NULL AS DOUBLE) AS w7
  FROM sqlnb_pivot AS p
  CROSS JOIN sqlnb_blocks AS s
  UNION ALL
  SELECT
    'spam' AS model,
    p.word AS word,
    -1 - s.base AS base,
    CASE
      WHEN s.n0 - COALESCE(p.c0, 0) + CAST(1.0 AS DOUBLE) > 0
      AND s.n0 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
      THEN LN(s.n0 - COALESCE(p.c0, 0) + CAST(1.0 AS DOUBLE)) - s.h2
    END AS w0,
    CASE
      WHEN s.n1 - COALESCE(p.c1, 0) + CAST(1.0 AS DOUBLE) > 0
      AND s.n1 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
      THEN LN(s.n1 - COALESCE(p.c1, 0) + CAST(1.0 AS DOUBLE)) - s.h3
    END AS w1,
    CAST(NULL AS DOUBLE) AS w2,
    CAST(NULL AS DOUBLE) AS w3,
    CAST(NULL AS DOUBLE) AS w4,
    CAST(NULL AS DOUBLE) AS w5,
    CAST(NULL AS DOUBLE) AS w6,
    CAST(NULL AS DOUBLE) AS w7
  FROM sqlnb_pivot AS p
  CROSS JOIN sqlnb_blocks AS s
) AS r;
