-- Gaussian sufficient statistics, in two passes (mean, then squared deviations from it): per
-- (class, feature) n, mean and m2 over the non-missing values.
INSERT INTO sqlnb_gaussian_stats (model, class_id, feature, n, mean, m2)
SELECT
  $model AS model,
  m.class_id AS class_id,
  m.feature AS feature,
  m.n AS n,
  m.mean AS mean,
  SUM((x.value - m.mean) * (x.value - m.mean)) AS m2
FROM $values AS x
JOIN $labeled AS l
  ON l.doc_id = x.doc_id
JOIN (
  SELECT
    k.class_id AS class_id,
    v.feature AS feature,
    CAST(COUNT(*) AS DOUBLE) AS n,
    AVG(v.value) AS mean
  FROM $values AS v
  JOIN $labeled AS k
    ON k.doc_id = v.doc_id
  GROUP BY k.class_id, v.feature
) AS m
  ON m.class_id = l.class_id AND m.feature = x.feature
GROUP BY m.class_id, m.feature, m.n, m.mean
