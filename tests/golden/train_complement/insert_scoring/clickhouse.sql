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
      WHEN NOT (
        s.n0 IS NULL
      )
      THEN CASE
        WHEN FALSE
        THEN (
          LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c0, 0)) - s.h1
        ) / SUM(LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c0, 0)) - s.h2) OVER (PARTITION BY s.base)
        ELSE s.h0 - LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c0, 0))
      END
    END AS w0,
    CASE
      WHEN NOT (
        s.n1 IS NULL
      )
      THEN CASE
        WHEN FALSE
        THEN (
          LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c1, 0)) - s.h4
        ) / SUM(LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c1, 0)) - s.h5) OVER (PARTITION BY s.base)
        ELSE s.h3 - LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c1, 0))
      END
    END AS w1,
    CASE
      WHEN NOT (
        s.n2 IS NULL
      )
      THEN CASE
        WHEN FALSE
        THEN (
          LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c2, 0)) - s.h7
        ) / SUM(LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c2, 0)) - s.h8) OVER (PARTITION BY s.base)
        ELSE s.h6 - LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c2, 0))
      END
    END AS w2,
    CASE
      WHEN NOT (
        s.n3 IS NULL
      )
      THEN CASE
        WHEN FALSE
        THEN (
          LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c3, 0)) - s.h10
        ) / SUM(LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c3, 0)) - s.h11) OVER (PARTITION BY s.base)
        ELSE s.h9 - LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c3, 0))
      END
    END AS w3,
    CASE
      WHEN NOT (
        s.n4 IS NULL
      )
      THEN CASE
        WHEN FALSE
        THEN (
          LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c4, 0)) - s.h13
        ) / SUM(LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c4, 0)) - s.h14) OVER (PARTITION BY s.base)
        ELSE s.h12 - LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c4, 0))
      END
    END AS w4,
    CASE
      WHEN NOT (
        s.n5 IS NULL
      )
      THEN CASE
        WHEN FALSE
        THEN (
          LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c5, 0)) - s.h16
        ) / SUM(LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c5, 0)) - s.h17) OVER (PARTITION BY s.base)
        ELSE s.h15 - LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c5, 0))
      END
    END AS w5,
    CASE
      WHEN NOT (
        s.n6 IS NULL
      )
      THEN CASE
        WHEN FALSE
        THEN (
          LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c6, 0)) - s.h19
        ) / SUM(LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c6, 0)) - s.h20) OVER (PARTITION BY s.base)
        ELSE s.h18 - LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c6, 0))
      END
    END AS w6,
    CASE
      WHEN NOT (
        s.n7 IS NULL
      )
      THEN CASE
        WHEN FALSE
        THEN (
          LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c7, 0)) - s.h22
        ) / SUM(LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c7, 0)) - s.h23) OVER (PARTITION BY s.base)
        ELSE s.h21 - LN(p.total + CAST(1.0 AS Nullable(Float64)) - COALESCE(q.c7, 0))
      END
    END AS w7
  FROM (
    SELECT
      SUM(
        COALESCE(w.c0, 0) + COALESCE(w.c1, 0) + COALESCE(w.c2, 0) + COALESCE(w.c3, 0) + COALESCE(w.c4, 0) + COALESCE(w.c5, 0) + COALESCE(w.c6, 0) + COALESCE(w.c7, 0)
      ) AS total,
      w.word AS word
    FROM sqlnb_pivot AS w
    GROUP BY
      w.word
  ) AS p
  CROSS JOIN sqlnb_blocks AS s
  LEFT JOIN sqlnb_pivot AS q
    ON q.word = p.word AND q.base = s.base
) AS r;
