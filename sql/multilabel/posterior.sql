-- Multi-label posterior of every (document, label): the label's binary probability, the logistic
-- function of its joint log-likelihood (a log odds: sqlnb/multilabel derives the label's weights
-- and base as "label" minus "not label"), in the form that cannot overflow. rn = 1 throughout:
-- every label is decided on its own. A NULL jll (no score) is a probability of 0.
SELECT
  j.doc_id AS doc_id,
  j.class_id AS class_id,
  j.jll AS jll,
  CASE
    WHEN j.jll IS NULL THEN NULL
    WHEN j.jll >= 0 THEN -LN(1 + EXP(-j.jll))
    ELSE j.jll - LN(1 + EXP(j.jll))
  END AS log_proba,
  CASE
    WHEN j.jll IS NULL THEN CAST(0 AS DOUBLE)
    WHEN j.jll >= 0 THEN 1 / (1 + EXP(-j.jll))
    ELSE EXP(j.jll) / (1 + EXP(j.jll))
  END AS proba,
  1 AS rn
FROM $jll AS j
