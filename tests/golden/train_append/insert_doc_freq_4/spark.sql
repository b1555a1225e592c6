INSERT INTO `sqlnb_doc_freq` (
  model,
  word,
  df
)
SELECT
  'spam' AS model,
  word,
  df
FROM `sqlnb_doc_freq`
WHERE
  model = 'spam\037merged';
