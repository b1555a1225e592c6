INSERT OVERWRITE TABLE `sqlnb_calibration` PARTITION(model = 'spam') (
  method,
  class_id,
  lo,
  hi,
  a,
  b
)
SELECT
  NULL AS method,
  NULL AS class_id,
  NULL AS lo,
  NULL AS hi,
  NULL AS a,
  NULL AS b
WHERE
  FALSE;
