-- Explaining (categorical features): each feature's log theta per row and class (values never
-- seen in training contribute nothing).
SELECT
  x.doc_id AS doc_id,
  lt.class_id AS class_id,
  x.feature AS feature,
  lt.log_theta AS score
FROM $values AS x
JOIN sqlnb_category_log_theta AS lt
  ON lt.feature = x.feature AND lt.value = x.value
WHERE lt.model = $model
