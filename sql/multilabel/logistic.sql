-- The binary posterior step of a multi-label model, written once (for sql/multilabel/
-- posterior.sql over rows, lists.sql over DuckDB's lists and ClickHouse's arrays): a label's probability is the logistic function of its log odds $v
-- (its joint log-likelihood: sqlnb/multilabel derives the label's weights and base as "label"
-- minus "not label"), in the form that cannot overflow, and its log. A NULL $v (no score) is
-- a probability of 0 (its log NULL).
SELECT
  CASE
    WHEN $v IS NULL THEN NULL
    WHEN $v >= 0 THEN -LN(1 + EXP(-$v))
    ELSE $v - LN(1 + EXP($v))
  END AS log_proba,
  CASE
    WHEN $v IS NULL THEN CAST(0 AS DOUBLE)
    WHEN $v >= 0 THEN 1 / (1 + EXP(-$v))
    ELSE EXP($v) / (1 + EXP($v))
  END AS proba
