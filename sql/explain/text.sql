-- Explaining (multinomial, complement): each known word's share of each class's joint
-- log-likelihood in each document, count * log theta (duplicate rows add up).
SELECT
  t.doc_id AS doc_id,
  lt.class_id AS class_id,
  t.word AS feature,
  SUM(t.count * lt.log_theta) AS score
FROM $tokens AS t
JOIN sqlnb_log_theta AS lt
  ON lt.word = t.word
WHERE lt.model = $model AND t.count > 0
GROUP BY t.doc_id, lt.class_id, t.word
