-- Gaussian features' share of the joint log-likelihood: per (document, class) the sum over the
-- row's non-missing features of -ln(2 pi var) / 2 - (x - mean)^2 / (2 var). The constant is
-- ln(2 pi) as a literal (no PI() everywhere).
SELECT
  x.doc_id AS doc_id,
  g.class_id AS class_id,
  SUM(
    -0.5 * (1.8378770664093453 + LN(g.var)) - 0.5 * (x.value - g.mean) * (x.value - g.mean) / g.var
  ) AS score,
  0 AS n_zero
FROM $values AS x
JOIN sqlnb_gaussian AS g
  ON g.feature = x.feature
WHERE g.model = $model
GROUP BY x.doc_id, g.class_id
