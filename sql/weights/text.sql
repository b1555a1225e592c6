-- A two-class text model as a linear classifier: weight_w = score of w in class 1 minus in
-- class 0 (multinomial: log theta_1w - log theta_0w; Bernoulli: the presence term
-- log theta - log(1 - theta)), and a '(bias)' row: the base of class 1 minus that of class 0
-- (log pi_1 - log pi_0; for Bernoulli with the all-absent constant folded in). Class 1 is the
-- label that sorts second. sum(count * weight) + bias = log P(1 | d) - log P(0 | d).
SELECT w.feature AS feature, w.weight AS weight
FROM (
  SELECT
    s.word AS feature,
    SUM(CASE WHEN s.class_id = 1 THEN s.score ELSE -s.score END) AS weight
  FROM $scores AS s
  GROUP BY s.word
  UNION ALL
  SELECT
    '(bias)' AS feature,
    SUM(CASE WHEN b.class_id = 1 THEN b.score ELSE -b.score END) AS weight
  FROM $base AS b
) AS w
