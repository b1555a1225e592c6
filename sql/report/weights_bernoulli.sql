-- A present word's weight per class in a Bernoulli model's joint log-likelihood, relative to the
-- base where every word is absent: log theta - log(1 - theta). NULL where either is -infinity
-- (alpha = 0), which the report treats as the log theta of -infinity.
SELECT
  lt.class_id AS class_id,
  lt.word AS word,
  lt.log_theta - la.log_absent AS weight
FROM sqlnb_log_theta AS lt
JOIN sqlnb_log_absent AS la
  ON la.model = lt.model AND la.class_id = lt.class_id AND la.word = lt.word
WHERE lt.model = $model
