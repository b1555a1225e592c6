-- Bernoulli parameters: log(1 - theta_kw) = ln(N_k - n_kw + beta) - ln(N_k + alpha + beta),
-- computed from the counts (not from theta) so it keeps its digits when theta is near 1.
-- NULL where 1 - theta = 0 (-infinity: the word is certain in that class).
INSERT INTO sqlnb_log_absent (model, class_id, word, log_absent)
SELECT
  c.model AS model,
  c.class_id AS class_id,
  v.word AS word,
  CASE
    WHEN c.n_docs - COALESCE(w.count, 0) + $beta > 0 AND c.n_docs + $alpha + $beta > 0
      THEN LN(c.n_docs - COALESCE(w.count, 0) + $beta) - LN(c.n_docs + $alpha + $beta)
  END AS log_absent
FROM sqlnb_classes AS c
CROSS JOIN (SELECT DISTINCT word FROM sqlnb_word_counts WHERE model = $model) AS v
LEFT JOIN (
  SELECT class_id, word, count FROM sqlnb_word_counts WHERE model = $model
) AS w
  ON w.class_id = c.class_id AND w.word = v.word
WHERE c.model = $model
