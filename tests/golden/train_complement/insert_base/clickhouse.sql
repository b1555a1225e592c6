INSERT INTO sqlnb_base (
  model,
  class_id,
  score,
  n_zero,
  presence
)
SELECT
  c.model AS model,
  c.class_id AS class_id,
  CAST(0 AS Nullable(Float64)) AS score,
  0 AS n_zero,
  FALSE AS presence
FROM sqlnb_classes AS c
WHERE
  c.model = 'spam';
