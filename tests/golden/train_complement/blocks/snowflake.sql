  SELECT
    *,
    LN(s.grand_total + CAST(1.0 AS DOUBLE) * s.vocabulary - COALESCE(s.t0, 0)) AS h0,
    LN(s.grand_total + CAST(1.0 AS DOUBLE) * s.vocabulary - COALESCE(s.t0, 0)) AS h1,
    LN(s.grand_total + CAST(1.0 AS DOUBLE) * s.vocabulary - COALESCE(s.t0, 0)) AS h2,
    LN(s.grand_total + CAST(1.0 AS DOUBLE) * s.vocabulary - COALESCE(s.t1, 0)) AS h3,
    LN(s.grand_total + CAST(1.0 AS DOUBLE) * s.vocabulary - COALESCE(s.t1, 0)) AS h4,
    LN(s.grand_total + CAST(1.0 AS DOUBLE) * s.vocabulary - COALESCE(s.t1, 0)) AS h5
  FROM (
    SELECT
      b.base AS base,
      z.t0 AS t0,
      z.t1 AS t1,
      z.vocabulary AS vocabulary,
      z.grand_total AS grand_total,
      d.n0 AS n0,
      d.n1 AS n1
    FROM (
      SELECT
        0 AS base
    ) AS b
    CROSS JOIN (
      SELECT
        SUM(w.c0) AS t0,
        SUM(w.c1) AS t1,
        CAST(COUNT(*) AS DOUBLE) AS vocabulary,
        SUM(w.total) AS grand_total
      FROM sqlnb_pivot AS w
    ) AS z
    CROSS JOIN (
      SELECT
        SUM(CASE WHEN g.class_id = 0 THEN g.n_docs END) AS n0,
        SUM(CASE WHEN g.class_id = 1 THEN g.n_docs END) AS n1
      FROM (
        SELECT
          c.class_id AS class_id,
          c.n_docs AS n_docs
        FROM sqlnb_classes AS c
        WHERE
          c.model = 'spam'
      ) AS g
    ) AS d
  ) AS s
