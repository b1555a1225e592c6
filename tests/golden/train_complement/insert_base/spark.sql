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
    c.model AS model,
    c.class_id AS class_id,
    CAST(0 AS DOUBLE) AS score,
    0 AS n_zero,
    FALSE AS presence
  FROM sqlnb_classes AS c
  WHERE
    c.model = 'spam'
) AS o;
