DROP TABLE IF EXISTS `predictions`;
CREATE TABLE `predictions` AS
WITH sqlnb_input AS (
  SELECT
    `doc_id` AS doc_id,
    CAST(`word` AS STRING) AS word,
    CAST(`count` AS DOUBLE) AS count
  FROM `tokens` AS s
), sqlnb_documents AS (
  SELECT DISTINCT
    doc_id
  FROM (
    SELECT
      `doc_id` AS doc_id,
      CAST(`word` AS STRING) AS word,
      CAST(`count` AS DOUBLE) AS count
    FROM `tokens` AS s
  ) AS s
), sqlnb_jll AS (
  SELECT
    d.doc_id AS doc_id,
    b.class_id AS class_id,
    CASE
      WHEN b.score IS NULL OR b.n_zero + COALESCE(s.n_zero, 0) > 0
      THEN NULL
      ELSE b.score + COALESCE(s.score, 0)
    END AS jll
  FROM sqlnb_documents AS d
  CROSS JOIN (
    SELECT
      p.class_id AS class_id,
      p.log_prior + a.score AS score,
      CASE WHEN p.log_prior IS NULL THEN 1 ELSE 0 END + a.n_zero AS n_zero
    FROM sqlnb_prior AS p
    JOIN (
      SELECT
        g.class_id AS class_id,
        SUM(g.score) AS score,
        SUM(g.n_zero) AS n_zero
      FROM (
        SELECT
          class_id,
          SUBSTRING(word, 1, 2) AS bucket,
          SUM(COALESCE(log_absent, 0)) AS score,
          SUM(CASE WHEN log_absent IS NULL THEN 1 ELSE 0 END) AS n_zero
        FROM sqlnb_log_absent
        WHERE
          model = 'spam'
        GROUP BY
          class_id,
          SUBSTRING(word, 1, 2)
      ) AS g
      GROUP BY
        g.class_id
    ) AS a
      ON a.class_id = p.class_id
    WHERE
      p.model = 'spam'
  ) AS b
  LEFT JOIN (
    SELECT
      s.doc_id AS doc_id,
      c.class_id AS class_id,
      CASE c.class_id - s.base WHEN 0 THEN s.w0 WHEN 1 THEN s.w1 END AS score,
      0 AS n_zero
    FROM (
      SELECT
        t.doc_id AS doc_id,
        w.base AS base,
        SUM(t.count * (
          w.w0 - w.a0
        )) AS w0,
        SUM(t.count * (
          w.w1 - w.a1
        )) AS w1
      FROM (
        SELECT DISTINCT
          x.doc_id AS doc_id,
          x.word AS word,
          1 AS count
        FROM sqlnb_input AS x
        WHERE
          x.count > 0
      ) AS t
      JOIN `sqlnb_scoring` AS w
        ON w.word = t.word
      WHERE
        w.model = 'spam'
      GROUP BY
        t.doc_id,
        w.base
    ) AS s
    JOIN (
      SELECT
        class_id
      FROM sqlnb_classes
      WHERE
        model = 'spam'
    ) AS c
      ON c.class_id - c.class_id % 32 = s.base
  ) AS s
    ON s.doc_id = d.doc_id AND s.class_id = b.class_id
), sqlnb_posterior AS (
  SELECT
    b.doc_id AS doc_id,
    b.class_id AS class_id,
    b.jll AS jll,
    b.jll - b.top - LN(CASE WHEN b.total > 0 THEN b.total END) AS log_proba,
    CASE
      WHEN b.top IS NULL
      THEN NULL
      WHEN b.jll IS NULL
      THEN CAST(0 AS DOUBLE)
      WHEN b.jll - b.top - LN(b.total) < -700
      THEN CAST(0 AS DOUBLE)
      ELSE EXP(b.jll - b.top - LN(b.total))
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
    model = 'spam'
) AS c
  ON c.class_id = p.class_id
WHERE
  p.rn = 1;
