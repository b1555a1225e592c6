-- Bernoulli's per-class base: the log prior plus the sum of log(1 - theta) over the whole
-- vocabulary, as if every word were absent; each present word then corrects its own term
-- (weight log theta - log(1 - theta), sqlnb/kinds/wide.py), so no document scans the
-- vocabulary. $absent is that sum per class (class_id, score, n_zero: the words certain in the
-- class, log(1 - theta) NULL), taken once here; n_zero adds the prior of 0.
INSERT INTO sqlnb_base (model, class_id, score, n_zero, presence)
SELECT
  p.model AS model,
  p.class_id AS class_id,
  p.log_prior + a.score AS score,
  CASE WHEN p.log_prior IS NULL THEN 1 ELSE 0 END + a.n_zero AS n_zero,
  TRUE AS presence
FROM sqlnb_prior AS p
JOIN $absent AS a
  ON a.class_id = p.class_id
WHERE p.model = $model
