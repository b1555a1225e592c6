-- The terms of class c's joint log-likelihood in sql/macros/scores.sql, which binds them into
-- the rule of sql/predict/joint.sql: the class's base; its factors of probability 0 among the
-- words $found (their positions in l.words; added up only where the model has any, l.zeros);
-- and its score: the words' weights added up ($found: each occurrence once: counted), or
-- each distinct word's transformed count (x, of the words MAP_KEYS(h), and the document's norm)
-- times its weight (transformed).
SELECT
  l.base[c] AS base,
  CASE
    WHEN l.zeros THEN l.base_zero[c] + COALESCE(LIST_SUM(LIST_SELECT(l.zero[c], $found)), 0)
    ELSE 0
  END AS n_zero,
  COALESCE(LIST_SUM(LIST_SELECT(l.weight[c], $found)), 0) AS counted,
  COALESCE(
    LIST_SUM(
      LIST_TRANSFORM(RANGE(1, LEN(x) + 1), LAMBDA i: x[i] / norm * l.weight[c][MAP_KEYS(h)[i]])
    ),
    0
  ) AS transformed
