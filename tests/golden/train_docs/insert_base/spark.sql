INSERT INTO sqlnb_base (
  model,
  class_id,
  score,
  n_zero,
  presence
)
SELECT
  p.model AS model,
  p.class_id AS class_id,
  p.log_prior AS score,
  CASE WHEN p.log_prior IS NULL THEN 1 ELSE 0 END AS n_zero,
  FALSE AS presence
FROM sqlnb_prior AS p
WHERE
  p.model = 'spam';
