INSERT OVERWRITE TABLE sqlnb_category_log_theta PARTITION(model = 'spam') (
  class_id,
  label,
  feature,
  value,
  log_theta
)
SELECT
  o.class_id,
  o.label,
  o.feature,
  o.value,
  o.log_theta
FROM (
  SELECT
    c.model AS model,
    c.class_id AS class_id,
    c.label AS label,
    v.feature AS feature,
    v.value AS value,
    CASE
      WHEN COALESCE(w.count, 0) + CAST(1.0 AS DOUBLE) > 0
      AND COALESCE(n.total, 0) + CAST(1.0 AS DOUBLE) * s.size > 0
      THEN LN(COALESCE(w.count, 0) + CAST(1.0 AS DOUBLE)) - LN(COALESCE(n.total, 0) + CAST(1.0 AS DOUBLE) * s.size)
    END AS log_theta
  FROM sqlnb_classes AS c
  CROSS JOIN (
    SELECT
      feature,
      value
    FROM sqlnb_category_counts
    WHERE
      model = 'spam'
    GROUP BY
      feature,
      value
  ) AS v
  JOIN (
    SELECT
      feature,
      CAST(COUNT(DISTINCT value) AS DOUBLE) AS size
    FROM sqlnb_category_counts
    WHERE
      model = 'spam'
    GROUP BY
      feature
  ) AS s
    ON s.feature = v.feature
  LEFT JOIN (
    SELECT
      class_id,
      feature,
      SUM(count) AS total
    FROM sqlnb_category_counts
    WHERE
      model = 'spam'
    GROUP BY
      class_id,
      feature
  ) AS n
    ON n.class_id = c.class_id AND n.feature = v.feature
  LEFT JOIN (
    SELECT
      class_id,
      feature,
      value,
      count
    FROM sqlnb_category_counts
    WHERE
      model = 'spam'
  ) AS w
    ON w.class_id = c.class_id AND w.feature = v.feature AND w.value = v.value
  WHERE
    c.model = 'spam'
) AS o;
