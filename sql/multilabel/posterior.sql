-- Multi-label posterior of every (document, label): the label's binary probability $proba and
-- its log $log_proba, sql/multilabel/logistic.sql of its joint log-likelihood (a log odds).
-- rn = 1 throughout: every label is decided on its own. A NULL jll (no score) is a
-- probability of 0.
SELECT
  j.doc_id AS doc_id,
  j.class_id AS class_id,
  j.jll AS jll,
  $log_proba AS log_proba,
  $proba AS proba,
  1 AS rn
FROM $jll AS j
