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
          w.class_id AS class_id,
          w.word AS word,
          CASE WHEN FALSE THEN w.count * f.idf ELSE w.count END AS count
        FROM sqlnb_word_counts AS w
        JOIN sqlnb_transform AS f
          ON f.model = w.model AND f.word = w.word
        WHERE
          w.model = 'spam'
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
        CAST(COUNT(DISTINCT word) AS DOUBLE) AS vocabulary,
        SUM(count) AS grand_total
      FROM (
        SELECT
          w.class_id AS class_id,
          w.word AS word,
          CASE WHEN FALSE THEN w.count * f.idf ELSE w.count END AS count
        FROM sqlnb_word_counts AS w
        JOIN sqlnb_transform AS f
          ON f.model = w.model AND f.word = w.word
        WHERE
          w.model = 'spam'
      ) AS w
    ) AS z
    GROUP BY
      g.base
  ) AS s
