INSERT INTO `sqlnb_classes` (
  model,
  class_id,
  label,
  n_docs
)
SELECT
  'spam' AS model,
  class_id,
  label,
  n_docs
FROM `sqlnb_classes`
WHERE
  model = 'spam\037merged';
