-- The present words' correction to Bernoulli's base: log theta - log(1 - theta) for each known
-- word of the document. n_zero adds the present words with theta = 0 and takes back the present
-- words certain in the class (counted as impossible by the base while absent).
SELECT
  t.doc_id AS doc_id,
  lt.class_id AS class_id,
  SUM(COALESCE(lt.log_theta, 0) - COALESCE(la.log_absent, 0)) AS score,
  SUM(
    CASE WHEN lt.log_theta IS NULL THEN 1 ELSE 0 END
    - CASE WHEN la.log_absent IS NULL THEN 1 ELSE 0 END
  ) AS n_zero
FROM (
  SELECT doc_id, word FROM $tokens AS x GROUP BY doc_id, word HAVING SUM(count) > 0
) AS t
JOIN sqlnb_log_theta AS lt
  ON lt.word = t.word
JOIN sqlnb_log_absent AS la
  ON la.model = lt.model AND la.class_id = lt.class_id AND la.word = lt.word
WHERE lt.model = $model
GROUP BY t.doc_id, lt.class_id
