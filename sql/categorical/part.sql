-- Categorical features' share of the joint log-likelihood: per (document, class) the sum of
-- log theta over the row's non-missing values seen in training. A value never seen in training
-- is not joined: it contributes nothing.
SELECT
  x.doc_id AS doc_id,
  lt.class_id AS class_id,
  SUM(lt.log_theta) AS score,
  SUM(CASE WHEN lt.log_theta IS NULL THEN 1 ELSE 0 END) AS n_zero
FROM $values AS x
JOIN sqlnb_category_log_theta AS lt
  ON lt.feature = x.feature AND lt.value = x.value
WHERE lt.model = $model
GROUP BY x.doc_id, lt.class_id
