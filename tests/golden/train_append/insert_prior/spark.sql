INSERT OVERWRITE TABLE `sqlnb_prior` PARTITION(model = 'spam') (
  class_id,
  label,
  log_prior
)
SELECT
  NULL AS class_id,
  NULL AS label,
  NULL AS log_prior
WHERE
  FALSE;
