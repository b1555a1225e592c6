SELECT
  MAX(CAST(q.label AS TEXT)) AS label,
  MAX(q.proba) AS proba
FROM (
  WITH sqlnb_input AS (
    SELECT
      g.doc_id AS doc_id,
      g.word AS word,
      CAST(1 AS REAL) AS count
    FROM (
      SELECT
        m.doc_id AS doc_id,
        m.token AS word
      FROM (
        SELECT
          s.doc_id AS doc_id,
          j.value AS token,
          j.key AS pos
        FROM (
          SELECT
            "doc_id" AS doc_id,
            "text" AS text
          FROM (
            SELECT
              1 AS doc_id,
              :sqlnb_text AS text
          ) AS x
        ) AS s
        CROSS JOIN JSON_EACH(SQLNB_TOKENS(s.text, '[\pL\pN]+(?:''[\pL\pN]+)*', TRUE)) AS j
      ) AS m
      WHERE
        m.token <> '' AND TRUE
    ) AS g
  ), sqlnb_documents AS (
    SELECT
      1 AS doc_id
  ), sqlnb_jll AS (
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
            b.model = :sqlnb_model
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
              s.model = :sqlnb_model
            GROUP BY
              t.doc_id,
              s.base
          ) AS s
          JOIN sqlnb_classes AS c
            ON c.class_id - c.class_id % 8 = s.base
          WHERE
            c.model = :sqlnb_model
        ) AS s
      ) AS u
      GROUP BY
        u.doc_id,
        u.class_id
      HAVING
        MAX(u.listed) = 1
    ) AS j
  ), sqlnb_posterior AS (
    SELECT
      b.doc_id AS doc_id,
      b.class_id AS class_id,
      b.jll AS jll,
      b.jll - (
        b.top + LN(CASE WHEN b.total > 0 THEN b.total END)
      ) AS log_proba,
      CASE
        WHEN b.top IS NULL
        THEN NULL
        WHEN b.jll IS NULL
        THEN CAST(0 AS REAL)
        WHEN b.jll - (
          b.top + LN(b.total)
        ) < -700
        THEN CAST(0 AS REAL)
        ELSE EXP(b.jll - (
          b.top + LN(b.total)
        ))
      END AS proba,
      ROW_NUMBER() OVER (
        PARTITION BY b.doc_id
        ORDER BY CASE WHEN b.jll IS NULL THEN 1 ELSE 0 END NULLS LAST, b.jll DESC, b.class_id NULLS LAST
      ) AS rn
    FROM (
      SELECT
        a.doc_id AS doc_id,
        a.class_id AS class_id,
        a.jll AS jll,
        a.top AS top,
        SUM(
          CASE WHEN a.jll IS NULL OR a.jll - a.top < -700 THEN 0 ELSE EXP(a.jll - a.top) END
        ) OVER (PARTITION BY a.doc_id) AS total
      FROM (
        SELECT
          j.doc_id AS doc_id,
          j.class_id AS class_id,
          j.jll AS jll,
          MAX(j.jll) OVER (PARTITION BY j.doc_id) AS top
        FROM sqlnb_jll AS j
      ) AS a
    ) AS b
  )
  SELECT
    p.doc_id AS doc_id,
    c.label AS label,
    p.proba AS proba
  FROM sqlnb_posterior AS p
  JOIN (
    SELECT
      class_id,
      label
    FROM sqlnb_classes
    WHERE
      model = :sqlnb_model
  ) AS c
    ON c.class_id = p.class_id
  WHERE
    p.rn = 1
) AS q;
