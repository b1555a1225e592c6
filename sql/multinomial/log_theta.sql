-- Multinomial parameters: log theta_kw = ln(N_kw + alpha) - ln(N_k + alpha * V) for every class k
-- and training word w, V the number of distinct training words. Where theta is 0 (alpha = 0 and
-- N_kw = 0, or a class without tokens) log theta is NULL, meaning -infinity.
INSERT INTO sqlnb_log_theta (model, class_id, label, word, log_theta)
SELECT
  c.model AS model,
  c.class_id AS class_id,
  c.label AS label,
  v.word AS word,
  CASE
    WHEN COALESCE(w.count, 0) + $alpha > 0 AND COALESCE(n.total, 0) + $alpha * s.size > 0
      THEN LN(COALESCE(w.count, 0) + $alpha) - LN(COALESCE(n.total, 0) + $alpha * s.size)
  END AS log_theta
FROM sqlnb_classes AS c
CROSS JOIN (
  SELECT DISTINCT word FROM sqlnb_word_counts WHERE model = $model
) AS v
CROSS JOIN (
  SELECT CAST(COUNT(DISTINCT word) AS DOUBLE) AS size FROM sqlnb_word_counts WHERE model = $model
) AS s
LEFT JOIN (
  SELECT class_id, SUM(count) AS total FROM sqlnb_word_counts WHERE model = $model GROUP BY class_id
) AS n
  ON n.class_id = c.class_id
LEFT JOIN (
  SELECT class_id, word, count FROM sqlnb_word_counts WHERE model = $model
) AS w
  ON w.class_id = c.class_id AND w.word = v.word
WHERE c.model = $model
