-- Gaussian sufficient statistics, in two passes (mean, then squared deviations from it): per
-- (class, feature) n, mean and m2 over the non-missing values, each weighted by its row's
-- sample weight (n is the summed weight).
INSERT INTO sqlnb_gaussian_stats (model, class_id, feature, n, mean, m2)
SELECT
  $model AS model,
  m.class_id AS class_id,
  m.feature AS feature,
  m.n AS n,
  m.mean AS mean,
  SUM(l.weight * (x.value - m.mean) * (x.value - m.mean)) AS m2
FROM $values AS x
JOIN $labeled AS l
  ON l.doc_id = x.doc_id
JOIN (
  SELECT
    k.class_id AS class_id,
    v.feature AS feature,
    SUM(k.weight) AS n,
    SUM(k.weight * v.value) / NULLIF(SUM(k.weight), 0) AS mean
  FROM $values AS v
  JOIN $labeled AS k
    ON k.doc_id = v.doc_id
  GROUP BY k.class_id, v.feature
) AS m
  ON m.class_id = l.class_id AND m.feature = x.feature
GROUP BY m.class_id, m.feature, m.n, m.mean
