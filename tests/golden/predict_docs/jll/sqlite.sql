  SELECT
    j.doc_id AS doc_id,
    j.class_id AS class_id,
    CASE WHEN j.base IS NULL OR j.n_zero > 0 THEN NULL ELSE j.base + j.score END AS jll
  FROM (
    SELECT
      u.doc_id AS doc_id,
      u.class_id AS class_id,
      MAX(u.base) AS base,
      SUM(u.n_zero) AS n_zero,
      SUM(u.score) AS score
    FROM (
      SELECT
        d.doc_id AS doc_id,
        b.class_id AS class_id,
        b.score AS base,
        CAST(b.n_zero AS INTEGER) AS n_zero,
        CAST(0 AS REAL) AS score,
        1 AS listed
      FROM sqlnb_documents AS d
      CROSS JOIN (
        SELECT
          b.class_id AS class_id,
          b.score AS score,
          b.n_zero AS n_zero
        FROM sqlnb_base AS b
        WHERE
          b.model = 'mail'
      ) AS b
      UNION ALL
      SELECT
        s.doc_id AS doc_id,
        s.class_id AS class_id,
        CAST(NULL AS REAL) AS base,
        CAST(s.n_zero AS INTEGER) AS n_zero,
        s.score AS score,
        0 AS listed
      FROM (
        SELECT
          s.doc_id AS doc_id,
          c.class_id AS class_id,
          CASE c.class_id % 8
            WHEN 0
            THEN s.w0
            WHEN 1
            THEN s.w1
            WHEN 2
            THEN s.w2
            WHEN 3
            THEN s.w3
            WHEN 4
            THEN s.w4
            WHEN 5
            THEN s.w5
            WHEN 6
            THEN s.w6
            WHEN 7
            THEN s.w7
          END AS score,
          0 AS n_zero
        FROM (
          SELECT
            t.doc_id AS doc_id,
            s.base AS base,
            SUM(t.count * s.w0) AS w0,
            SUM(t.count * s.w1) AS w1,
            SUM(t.count * s.w2) AS w2,
            SUM(t.count * s.w3) AS w3,
            SUM(t.count * s.w4) AS w4,
            SUM(t.count * s.w5) AS w5,
            SUM(t.count * s.w6) AS w6,
            SUM(t.count * s.w7) AS w7
          FROM (
            SELECT
              t.doc_id AS doc_id,
              t.word AS word,
              t.count AS count
            FROM sqlnb_input AS t
            WHERE
              t.count > 0
          ) AS t
          JOIN "sqlnb_scoring" AS s
            ON s.word = t.word
          WHERE
            s.model = 'mail'
          GROUP BY
            t.doc_id,
            s.base
        ) AS s
        JOIN sqlnb_classes AS c
          ON c.class_id - c.class_id % 8 = s.base
        WHERE
          c.model = 'mail'
      ) AS s
    ) AS u
    GROUP BY
      u.doc_id,
      u.class_id
    HAVING
      MAX(u.listed) = 1
  ) AS j
