  SELECT
    *,
    LN(s.n0 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h0,
    LN(s.n1 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h1,
    LN(s.n2 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h2,
    LN(s.n3 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h3,
    LN(s.n4 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h4,
    LN(s.n5 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h5,
    LN(s.n6 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h6,
    LN(s.n7 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h7,
    LN(s.n0 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h8,
    LN(s.n1 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h9,
    LN(s.n2 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h10,
    LN(s.n3 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h11,
    LN(s.n4 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h12,
    LN(s.n5 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h13,
    LN(s.n6 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h14,
    LN(s.n7 + CAST(1.0 AS DOUBLE PRECISION) + CAST(1.0 AS DOUBLE PRECISION)) AS h15
  FROM (
    SELECT
      g.base AS base,
      SUM(CASE WHEN g.slot = 0 THEN g.total END) AS t0,
      SUM(CASE WHEN g.slot = 1 THEN g.total END) AS t1,
      SUM(CASE WHEN g.slot = 2 THEN g.total END) AS t2,
      SUM(CASE WHEN g.slot = 3 THEN g.total END) AS t3,
      SUM(CASE WHEN g.slot = 4 THEN g.total END) AS t4,
      SUM(CASE WHEN g.slot = 5 THEN g.total END) AS t5,
      SUM(CASE WHEN g.slot = 6 THEN g.total END) AS t6,
      SUM(CASE WHEN g.slot = 7 THEN g.total END) AS t7,
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
        c.n_docs AS n_docs,
        SUM(k.count) AS total
      FROM sqlnb_classes AS c
      LEFT JOIN (
        SELECT
          class_id,
          word,
          count
        FROM sqlnb_word_counts
        WHERE
          model = 'spam'
      ) AS k
        ON k.class_id = c.class_id
      WHERE
        c.model = 'spam'
      GROUP BY
        c.class_id,
        c.n_docs
    ) AS g
    CROSS JOIN (
      SELECT
        CAST(COUNT(DISTINCT word) AS DOUBLE PRECISION) AS vocabulary,
        SUM(count) AS grand_total
      FROM (
        SELECT
          class_id,
          word,
          count
        FROM sqlnb_word_counts
        WHERE
          model = 'spam'
      ) AS w
    ) AS z
    GROUP BY
      g.base
  ) AS s
