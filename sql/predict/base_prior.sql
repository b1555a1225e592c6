-- The per-class base of the joint log-likelihood: the log prior (NULL = a prior of 0).
SELECT
  p.class_id AS class_id,
  p.log_prior AS score,
  CASE WHEN p.log_prior IS NULL THEN 1 ELSE 0 END AS n_zero
FROM sqlnb_prior AS p
WHERE p.model = $model
