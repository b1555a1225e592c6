-- The words' share of the joint log-likelihood (multinomial, complement): per (document, class)
-- the sum of count * log theta over the document's known words (words outside the vocabulary
-- are not joined, so they are ignored), and the number of those words whose log theta is NULL
-- (theta = 0: the class is impossible).
SELECT
  t.doc_id AS doc_id,
  lt.class_id AS class_id,
  SUM(t.count * lt.log_theta) AS score,
  SUM(CASE WHEN lt.log_theta IS NULL THEN 1 ELSE 0 END) AS n_zero
FROM $tokens AS t
JOIN sqlnb_log_theta AS lt
  ON lt.word = t.word
WHERE lt.model = $model AND t.count > 0
GROUP BY t.doc_id, lt.class_id
