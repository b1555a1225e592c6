INSERT OVERWRITE TABLE sqlnb_base PARTITION(model = 'spam') (
  class_id,
  score,
  n_zero,
  presence
)
SELECT
  o.class_id,
  o.score,
  o.n_zero,
  o.presence
FROM (
  SELECT
    p.model AS model,
    p.class_id AS class_id,
    p.log_prior AS score,
    CASE WHEN p.log_prior IS NULL THEN 1 ELSE 0 END AS n_zero,
    FALSE AS presence
  FROM sqlnb_prior AS p
  WHERE
    p.model = 'spam'
) AS o;
