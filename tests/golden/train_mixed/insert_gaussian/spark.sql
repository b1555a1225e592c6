INSERT OVERWRITE TABLE sqlnb_gaussian PARTITION(model = 'spam') (
  class_id,
  label,
  feature,
  mean,
  var
)
SELECT
  o.class_id,
  o.label,
  o.feature,
  o.mean,
  o.var
FROM (
  SELECT
    s.model AS model,
    s.class_id AS class_id,
    c.label AS label,
    s.feature AS feature,
    s.mean AS mean,
    CASE
      WHEN FALSE
      THEN CASE WHEN s.n > 1 THEN s.m2 / (
        s.n - 1
      ) ELSE CAST(0 AS DOUBLE) END
      ELSE s.m2 / s.n
    END + e.epsilon AS var
  FROM sqlnb_gaussian_stats AS s
  JOIN sqlnb_classes AS c
    ON c.model = s.model AND c.class_id = s.class_id
  CROSS JOIN (
    SELECT
      CAST(1e-09 AS DOUBLE) * COALESCE(
        (
          SELECT
            MAX(v.m2 / v.n)
          FROM sqlnb_gaussian_spread AS v
          WHERE
            v.model = 'spam'
        ),
        MAX(t.m2 / t.n)
      ) AS epsilon
    FROM (
      SELECT
        f.feature AS feature,
        f.n AS n,
        SUM(g.m2 + g.n * (
          g.mean - f.mean
        ) * (
          g.mean - f.mean
        )) AS m2
      FROM sqlnb_gaussian_stats AS g
      JOIN (
        SELECT
          feature,
          SUM(n) AS n,
          SUM(n * mean) / SUM(n) AS mean
        FROM sqlnb_gaussian_stats
        WHERE
          model = 'spam'
        GROUP BY
          feature
      ) AS f
        ON f.feature = g.feature
      WHERE
        g.model = 'spam'
      GROUP BY
        f.feature,
        f.n
    ) AS t
  ) AS e
  WHERE
    s.model = 'spam'
) AS o;
