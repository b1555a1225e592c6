-- Bernoulli's per-class base: the log prior plus the sum of log(1 - theta) over the whole
-- vocabulary, as if every word were absent; each present word then corrects its own term
-- (sqlnb/kinds/wide.py), so no document scans the vocabulary. n_zero counts the prior of 0
-- and the words certain in the class (log(1 - theta) NULL). The vocabulary-long sum is taken in
-- two levels (by the words' first two characters, then over those partial sums): a plain SUM
-- of 200,000 doubles drifts by 1e-9, the two-level one stays near 1e-12 on every engine.
SELECT
  p.class_id AS class_id,
  p.log_prior + a.score AS score,
  CASE WHEN p.log_prior IS NULL THEN 1 ELSE 0 END + a.n_zero AS n_zero
FROM sqlnb_prior AS p
JOIN (
  SELECT g.class_id AS class_id, SUM(g.score) AS score, SUM(g.n_zero) AS n_zero
  FROM (
    SELECT
      class_id,
      SUBSTRING(word, 1, 2) AS bucket,
      SUM(COALESCE(log_absent, 0)) AS score,
      SUM(CASE WHEN log_absent IS NULL THEN 1 ELSE 0 END) AS n_zero
    FROM sqlnb_log_absent
    WHERE model = $model
    GROUP BY class_id, SUBSTRING(word, 1, 2)
  ) AS g
  GROUP BY g.class_id
) AS a
  ON a.class_id = p.class_id
WHERE p.model = $model
