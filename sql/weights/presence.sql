-- Per (class, word) the Bernoulli score of presence beyond the all-absent base:
-- log theta - log(1 - theta).
SELECT lt.class_id AS class_id, lt.word AS word, lt.log_theta - la.log_absent AS score
FROM sqlnb_log_theta AS lt
JOIN sqlnb_log_absent AS la
  ON la.model = lt.model AND la.class_id = lt.class_id AND la.word = lt.word
WHERE lt.model = $model
