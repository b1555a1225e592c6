INSERT INTO `sqlnb_doc_count` (
  model,
  n
)
SELECT
  'spam' AS model,
  n
FROM `sqlnb_doc_count`
WHERE
  model = 'spam\037merged';
