-- A table model's categorical features: the probability of each training value per class.
SELECT
  lt.label AS label,
  lt.feature AS feature,
  lt.value AS value,
  CASE WHEN lt.log_theta IS NULL THEN CAST(0 AS DOUBLE) ELSE EXP(lt.log_theta) END AS probability
FROM sqlnb_category_log_theta AS lt
WHERE lt.model = $model
ORDER BY lt.feature, lt.value, lt.class_id
