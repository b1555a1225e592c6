INSERT OVERWRITE TABLE `sqlnb_classes` PARTITION(model = 'spam\037merged') (
  class_id,
  label,
  n_docs
)
SELECT
  NULL AS class_id,
  NULL AS label,
  NULL AS n_docs
WHERE
  FALSE;
