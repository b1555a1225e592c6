-- Explaining (Bernoulli): each present word's share beyond the all-absent base,
-- log theta - log(1 - theta), per document and class.
SELECT
  t.doc_id AS doc_id,
  lt.class_id AS class_id,
  t.word AS feature,
  lt.log_theta - la.log_absent AS score
FROM (
  SELECT doc_id, word FROM $tokens AS x GROUP BY doc_id, word HAVING SUM(count) > 0
) AS t
JOIN sqlnb_log_theta AS lt
  ON lt.word = t.word
JOIN sqlnb_log_absent AS la
  ON la.model = lt.model AND la.class_id = lt.class_id AND la.word = lt.word
WHERE lt.model = $model
