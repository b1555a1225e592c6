-- A present word's weight per class in a Bernoulli model's joint log-likelihood, relative to the
-- base where every word is absent: log theta - log(1 - theta). As in sql/bernoulli/part.sql, a
-- word certain in the class (log(1 - theta) NULL) weighs log theta: the base leaves it out. NULL
-- where theta = 0 (-infinity: the present word rules the class out).
SELECT
  lt.class_id AS class_id,
  lt.word AS word,
  lt.log_theta - COALESCE(la.log_absent, 0) AS weight
FROM sqlnb_log_theta AS lt
JOIN sqlnb_log_absent AS la
  ON la.model = lt.model AND la.class_id = lt.class_id AND la.word = lt.word
WHERE lt.model = $model
