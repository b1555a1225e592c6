  SELECT
    *,
    LN(COALESCE(s.t0, 0) + CAST(1.0 AS DOUBLE) * s.vocabulary) AS h0,
    LN(COALESCE(s.t1, 0) + CAST(1.0 AS DOUBLE) * s.vocabulary) AS h1,
    LN(COALESCE(s.t2, 0) + CAST(1.0 AS DOUBLE) * s.vocabulary) AS h2,
    LN(COALESCE(s.t3, 0) + CAST(1.0 AS DOUBLE) * s.vocabulary) AS h3,
    LN(COALESCE(s.t4, 0) + CAST(1.0 AS DOUBLE) * s.vocabulary) AS h4,
    LN(COALESCE(s.t5, 0) + CAST(1.0 AS DOUBLE) * s.vocabulary) AS h5,
    LN(COALESCE(s.t6, 0) + CAST(1.0 AS DOUBLE) * s.vocabulary) AS h6,
    LN(COALESCE(s.t7, 0) + CAST(1.0 AS DOUBLE) * s.vocabulary) AS h7
  FROM (
    SELECT
      g.base AS base,
      MAX(k.t0) AS t0,
      MAX(k.t1) AS t1,
      MAX(k.t2) AS t2,
      MAX(k.t3) AS t3,
      MAX(k.t4) AS t4,
      MAX(k.t5) AS t5,
      MAX(k.t6) AS t6,
      MAX(k.t7) AS t7,
      SUM(CASE WHEN g.slot = 0 THEN g.n_docs END) AS n0,
      SUM(CASE WHEN g.slot = 1 THEN g.n_docs END) AS n1,
      SUM(CASE WHEN g.slot = 2 THEN g.n_docs END) AS n2,
      SUM(CASE WHEN g.slot = 3 THEN g.n_docs END) AS n3,
      SUM(CASE WHEN g.slot = 4 THEN g.n_docs END) AS n4,
      SUM(CASE WHEN g.slot = 5 THEN g.n_docs END) AS n5,
      SUM(CASE WHEN g.slot = 6 THEN g.n_docs END) AS n6,
      SUM(CASE WHEN g.slot = 7 THEN g.n_docs END) AS n7,
      MAX(z.vocabulary) AS vocabulary,
      MAX(z.grand_total) AS grand_total
    FROM (
      SELECT
        c.class_id - c.class_id % 8 AS base,
        c.class_id % 8 AS slot,
        c.n_docs AS n_docs
      FROM sqlnb_classes AS c
      WHERE
        c.model = 'spam'
    ) AS g
    LEFT JOIN (
      SELECT
        w.base AS base,
        SUM(w.c0) AS t0,
        SUM(w.c1) AS t1,
        SUM(w.c2) AS t2,
        SUM(w.c3) AS t3,
        SUM(w.c4) AS t4,
        SUM(w.c5) AS t5,
        SUM(w.c6) AS t6,
        SUM(w.c7) AS t7
      FROM sqlnb_pivot AS w
      GROUP BY
        w.base
    ) AS k
      ON k.base = g.base
    CROSS JOIN (
      SELECT
        CAST(COUNT(DISTINCT w.word) AS DOUBLE) AS vocabulary,
        SUM(
          COALESCE(w.c0, 0) + COALESCE(w.c1, 0) + COALESCE(w.c2, 0) + COALESCE(w.c3, 0) + COALESCE(w.c4, 0) + COALESCE(w.c5, 0) + COALESCE(w.c6, 0) + COALESCE(w.c7, 0)
        ) AS grand_total
      FROM sqlnb_pivot AS w
    ) AS z
    GROUP BY
      g.base
  ) AS s
