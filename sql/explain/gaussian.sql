-- Explaining (Gaussian features): each feature's log density per row and class.
SELECT
  x.doc_id AS doc_id,
  g.class_id AS class_id,
  x.feature AS feature,
  CAST(-0.5 AS DOUBLE) * (CAST(1.8378770664093453 AS DOUBLE) + LN(g.var))
    - CAST(0.5 AS DOUBLE) * (x.value - g.mean) * (x.value - g.mean) / g.var AS score
FROM $values AS x
JOIN sqlnb_gaussian AS g
  ON g.feature = x.feature
WHERE g.model = $model
