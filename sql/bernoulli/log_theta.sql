-- Bernoulli parameters: theta_kw = (n_kw + alpha) / (N_k + alpha + beta), with n_kw the class's
-- documents containing w and N_k the class's documents: the mean of a Beta(alpha, beta) prior
-- updated by the counts. NULL where theta = 0 (-infinity).
INSERT INTO sqlnb_log_theta (model, class_id, label, word, log_theta)
SELECT
  c.model AS model,
  c.class_id AS class_id,
  c.label AS label,
  v.word AS word,
  CASE
    WHEN COALESCE(w.count, 0) + $alpha > 0 AND c.n_docs + $alpha + $beta > 0
      THEN LN(COALESCE(w.count, 0) + $alpha) - LN(c.n_docs + $alpha + $beta)
  END AS log_theta
FROM sqlnb_classes AS c
CROSS JOIN (SELECT DISTINCT word FROM sqlnb_word_counts WHERE model = $model) AS v
LEFT JOIN (
  SELECT class_id, word, count FROM sqlnb_word_counts WHERE model = $model
) AS w
  ON w.class_id = c.class_id AND w.word = v.word
WHERE c.model = $model
