-- Per (class, word) the Bernoulli score of presence beyond the all-absent base:
-- log theta - log(1 - theta). A word certain in the class (log(1 - theta) NULL) scores
-- log theta: the base counts its absence as a probability-0 factor, which its presence takes
-- back (sql/bernoulli/base.sql, sqlnb/kinds/wide.py). NULL where theta = 0 (-infinity).
SELECT
  lt.class_id AS class_id,
  lt.word AS word,
  lt.log_theta - COALESCE(la.log_absent, 0) AS score
FROM sqlnb_log_theta AS lt
JOIN sqlnb_log_absent AS la
  ON la.model = lt.model AND la.class_id = lt.class_id AND la.word = lt.word
WHERE lt.model = $model
