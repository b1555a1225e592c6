-- Complement Naive Bayes weights (Rennie et al. 2003), as scikit-learn's ComplementNB
-- feature_log_prob_: with comp_kw = (sum over classes of N_jw) + alpha - N_kw,
--   logged_kw = ln(comp_kw) - ln(sum over words of comp_kw),
--   weight_kw = logged_kw / (sum over words of logged_kw) with $norm, else -logged_kw.
-- alpha > 0 is required, so every logarithm is of a positive number.
INSERT INTO sqlnb_log_theta (model, class_id, label, word, log_theta)
SELECT
  g.model AS model,
  g.class_id AS class_id,
  g.label AS label,
  g.word AS word,
  CASE
    WHEN $norm THEN g.logged / SUM(g.logged) OVER (PARTITION BY g.class_id)
    ELSE -g.logged
  END AS log_theta
FROM (
  SELECT
    c.model AS model,
    c.class_id AS class_id,
    c.label AS label,
    v.word AS word,
    LN(v.total + $alpha - COALESCE(w.count, 0))
      - LN(s.total + $alpha * s.size - COALESCE(n.total, 0)) AS logged
  FROM sqlnb_classes AS c
  CROSS JOIN (
    SELECT word, SUM(count) AS total FROM sqlnb_word_counts WHERE model = $model GROUP BY word
  ) AS v
  CROSS JOIN (
    SELECT SUM(count) AS total, CAST(COUNT(DISTINCT word) AS DOUBLE) AS size
    FROM sqlnb_word_counts
    WHERE model = $model
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
) AS g
