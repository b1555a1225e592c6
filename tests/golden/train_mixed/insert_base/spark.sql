INSERT OVERWRITE TABLE `sqlnb_base` PARTITION(model = 'spam') (
  class_id,
  score,
  n_zero,
  presence
)
SELECT
  NULL AS class_id,
  NULL AS score,
  NULL AS n_zero,
  NULL AS presence
WHERE
  FALSE;
