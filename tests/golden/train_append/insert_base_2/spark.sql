INSERT INTO sqlnb_base (
  model,
  class_id,
  score,
  n_zero,
  presence
)
SELECT
  p.model AS model,
  p.class_id AS class_id,
  p.log_prior + a.score AS score,
  CASE WHEN p.log_prior IS NULL THEN 1 ELSE 0 END + a.n_zero AS n_zero,
  TRUE AS presence
FROM sqlnb_prior AS p
JOIN (
  SELECT
    c.class_id AS class_id,
    CASE c.class_id % 8
      WHEN 0
      THEN s.a0
      WHEN 1
      THEN s.a1
      WHEN 2
      THEN s.a2
      WHEN 3
      THEN s.a3
      WHEN 4
      THEN s.a4
      WHEN 5
      THEN s.a5
      WHEN 6
      THEN s.a6
      WHEN 7
      THEN s.a7
    END AS score,
    CASE c.class_id % 8
      WHEN 0
      THEN s.z0
      WHEN 1
      THEN s.z1
      WHEN 2
      THEN s.z2
      WHEN 3
      THEN s.z3
      WHEN 4
      THEN s.z4
      WHEN 5
      THEN s.z5
      WHEN 6
      THEN s.z6
      WHEN 7
      THEN s.z7
    END AS n_zero
  FROM (
    SELECT
      g.base AS base,
      SUM(g.a0) AS a0,
      SUM(g.z0) AS z0,
      SUM(g.a1) AS a1,
      SUM(g.z1) AS z1,
      SUM(g.a2) AS a2,
      SUM(g.z2) AS z2,
      SUM(g.a3) AS a3,
      SUM(g.z3) AS z3,
      SUM(g.a4) AS a4,
      SUM(g.z4) AS z4,
      SUM(g.a5) AS a5,
      SUM(g.z5) AS z5,
      SUM(g.a6) AS a6,
      SUM(g.z6) AS z6,
      SUM(g.a7) AS a7,
      SUM(g.z7) AS z7
    FROM (
      SELECT
        -1 - s.base AS base,
        SUBSTRING(s.word, 1, 2) AS bucket,
        SUM(COALESCE(s.w0, 0)) AS a0,
        SUM(CASE WHEN s.w0 IS NULL THEN 1 ELSE 0 END) AS z0,
        SUM(COALESCE(s.w1, 0)) AS a1,
        SUM(CASE WHEN s.w1 IS NULL THEN 1 ELSE 0 END) AS z1,
        SUM(COALESCE(s.w2, 0)) AS a2,
        SUM(CASE WHEN s.w2 IS NULL THEN 1 ELSE 0 END) AS z2,
        SUM(COALESCE(s.w3, 0)) AS a3,
        SUM(CASE WHEN s.w3 IS NULL THEN 1 ELSE 0 END) AS z3,
        SUM(COALESCE(s.w4, 0)) AS a4,
        SUM(CASE WHEN s.w4 IS NULL THEN 1 ELSE 0 END) AS z4,
        SUM(COALESCE(s.w5, 0)) AS a5,
        SUM(CASE WHEN s.w5 IS NULL THEN 1 ELSE 0 END) AS z5,
        SUM(COALESCE(s.w6, 0)) AS a6,
        SUM(CASE WHEN s.w6 IS NULL THEN 1 ELSE 0 END) AS z6,
        SUM(COALESCE(s.w7, 0)) AS a7,
        SUM(CASE WHEN s.w7 IS NULL THEN 1 ELSE 0 END) AS z7
      FROM `sqlnb_scoring` AS s
      WHERE
        s.model = 'spam' AND s.base < 0
      GROUP BY
        s.base,
        SUBSTRING(s.word, 1, 2)
    ) AS g
    GROUP BY
      g.base
  ) AS s
  JOIN (
    SELECT
      class_id
    FROM sqlnb_classes
    WHERE
      model = 'spam'
  ) AS c
    ON c.class_id - c.class_id % 8 = s.base
) AS a
  ON a.class_id = p.class_id
WHERE
  p.model = 'spam';
