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
      WHEN NOT s.n0 IS NULL
      THEN CASE
        WHEN COALESCE(q.c0, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n0 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c0, 0) + CAST(1.0 AS DOUBLE)) - s.h0
      END
    END AS w0,
    CASE
      WHEN NOT s.n1 IS NULL
      THEN CASE
        WHEN COALESCE(q.c1, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n1 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c1, 0) + CAST(1.0 AS DOUBLE)) - s.h1
      END
    END AS w1,
    CASE
      WHEN NOT s.n2 IS NULL
      THEN CASE
        WHEN COALESCE(q.c2, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n2 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c2, 0) + CAST(1.0 AS DOUBLE)) - s.h2
      END
    END AS w2,
    CASE
      WHEN NOT s.n3 IS NULL
      THEN CASE
        WHEN COALESCE(q.c3, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n3 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c3, 0) + CAST(1.0 AS DOUBLE)) - s.h3
      END
    END AS w3,
    CASE
      WHEN NOT s.n4 IS NULL
      THEN CASE
        WHEN COALESCE(q.c4, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n4 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c4, 0) + CAST(1.0 AS DOUBLE)) - s.h4
      END
    END AS w4,
    CASE
      WHEN NOT s.n5 IS NULL
      THEN CASE
        WHEN COALESCE(q.c5, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n5 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c5, 0) + CAST(1.0 AS DOUBLE)) - s.h5
      END
    END AS w5,
    CASE
      WHEN NOT s.n6 IS NULL
      THEN CASE
        WHEN COALESCE(q.c6, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n6 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c6, 0) + CAST(1.0 AS DOUBLE)) - s.h6
      END
    END AS w6,
    CASE
      WHEN NOT s.n7 IS NULL
      THEN CASE
        WHEN COALESCE(q.c7, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n7 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c7, 0) + CAST(1.0 AS DOUBLE)) - s.h7
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
  UNION ALL
  SELECT
    'spam' AS model,
    p.word AS word,
    -1 - s.base AS base,
    CASE
      WHEN NOT s.n0 IS NULL
      THEN CASE
        WHEN s.n0 - COALESCE(q.c0, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n0 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n0 - COALESCE(q.c0, 0) + CAST(1.0 AS DOUBLE)) - s.h8
      END
    END AS w0,
    CASE
      WHEN NOT s.n1 IS NULL
      THEN CASE
        WHEN s.n1 - COALESCE(q.c1, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n1 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n1 - COALESCE(q.c1, 0) + CAST(1.0 AS DOUBLE)) - s.h9
      END
    END AS w1,
    CASE
      WHEN NOT s.n2 IS NULL
      THEN CASE
        WHEN s.n2 - COALESCE(q.c2, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n2 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n2 - COALESCE(q.c2, 0) + CAST(1.0 AS DOUBLE)) - s.h10
      END
    END AS w2,
    CASE
      WHEN NOT s.n3 IS NULL
      THEN CASE
        WHEN s.n3 - COALESCE(q.c3, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n3 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n3 - COALESCE(q.c3, 0) + CAST(1.0 AS DOUBLE)) - s.h11
      END
    END AS w3,
    CASE
      WHEN NOT s.n4 IS NULL
      THEN CASE
        WHEN s.n4 - COALESCE(q.c4, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n4 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n4 - COALESCE(q.c4, 0) + CAST(1.0 AS DOUBLE)) - s.h12
      END
    END AS w4,
    CASE
      WHEN NOT s.n5 IS NULL
      THEN CASE
        WHEN s.n5 - COALESCE(q.c5, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n5 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n5 - COALESCE(q.c5, 0) + CAST(1.0 AS DOUBLE)) - s.h13
      END
    END AS w5,
    CASE
      WHEN NOT s.n6 IS NULL
      THEN CASE
        WHEN s.n6 - COALESCE(q.c6, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n6 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n6 - COALESCE(q.c6, 0) + CAST(1.0 AS DOUBLE)) - s.h14
      END
    END AS w6,
    CASE
      WHEN NOT s.n7 IS NULL
      THEN CASE
        WHEN s.n7 - COALESCE(q.c7, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n7 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n7 - COALESCE(q.c7, 0) + CAST(1.0 AS DOUBLE)) - s.h15
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
