INSERT OVERWRITE TABLE `sqlnb_word_counts` PARTITION(model = 'spam\037batch') (
  class_id,
  word,
  count
)
SELECT
  NULL AS class_id,
  NULL AS word,
  NULL AS count
WHERE
  FALSE;
