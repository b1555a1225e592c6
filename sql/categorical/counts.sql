-- Categorical sufficient statistics: rows (their summed weight) per (class, feature, value),
-- missing values left out.
INSERT INTO sqlnb_category_counts (model, class_id, feature, value, count)
SELECT
  $model AS model,
  l.class_id AS class_id,
  x.feature AS feature,
  x.value AS value,
  SUM(l.weight) AS count
FROM $values AS x
JOIN $labeled AS l
  ON l.doc_id = x.doc_id
GROUP BY l.class_id, x.feature, x.value
