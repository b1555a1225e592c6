-- Categorical parameters: theta_kdc = (N_kdc + alpha) / (N_kd + alpha * C_d), N_kd the class's
-- rows where feature d is not missing and C_d the number of distinct training values of d; for
-- every class, feature and training value. NULL where theta = 0 (-infinity).
INSERT INTO sqlnb_category_log_theta (model, class_id, label, feature, value, log_theta)
SELECT
  c.model AS model,
  c.class_id AS class_id,
  c.label AS label,
  v.feature AS feature,
  v.value AS value,
  CASE
    WHEN COALESCE(w.count, 0) + $alpha > 0 AND COALESCE(n.total, 0) + $alpha * s.size > 0
      THEN LN(COALESCE(w.count, 0) + $alpha) - LN(COALESCE(n.total, 0) + $alpha * s.size)
  END AS log_theta
FROM sqlnb_classes AS c
CROSS JOIN (
  SELECT feature, value FROM sqlnb_category_counts WHERE model = $model GROUP BY feature, value
) AS v
JOIN (
  SELECT feature, CAST(COUNT(DISTINCT value) AS DOUBLE) AS size
  FROM sqlnb_category_counts
  WHERE model = $model
  GROUP BY feature
) AS s
  ON s.feature = v.feature
LEFT JOIN (
  SELECT class_id, feature, SUM(count) AS total
  FROM sqlnb_category_counts
  WHERE model = $model
  GROUP BY class_id, feature
) AS n
  ON n.class_id = c.class_id AND n.feature = v.feature
LEFT JOIN (
  SELECT class_id, feature, value, count FROM sqlnb_category_counts WHERE model = $model
) AS w
  ON w.class_id = c.class_id AND w.feature = v.feature AND w.value = v.value
WHERE c.model = $model
