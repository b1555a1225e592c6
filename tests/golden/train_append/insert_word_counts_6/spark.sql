INSERT INTO `sqlnb_word_counts` (
  model,
  class_id,
  word,
  count
)
SELECT
  'spam' AS model,
  class_id,
  word,
  count
FROM `sqlnb_word_counts`
WHERE
  model = 'spam\037merged';
