-- Gaussian features' share of the joint log-likelihood: per (document, class) the sum over the
-- row's non-missing features of -ln(2 pi var) / 2 - (x - mean)^2 / (2 var). The constant is
-- ln(2 pi) as a literal (no PI() everywhere).
SELECT
  x.doc_id AS doc_id,
  g.class_id AS class_id,
  SUM(
    CAST(-0.5 AS DOUBLE) * (CAST(1.8378770664093453 AS DOUBLE) + LN(g.var))
    - CAST(0.5 AS DOUBLE) * (x.value - g.mean) * (x.value - g.mean) / g.var
  ) AS score,
  0 AS n_zero
FROM $values AS x
JOIN sqlnb_gaussian AS g
  ON g.feature = x.feature
WHERE g.model = $model
GROUP BY x.doc_id, g.class_id
