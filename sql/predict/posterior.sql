-- Posterior of every (document, class) from a joint log-likelihood (doc_id, class_id, jll), for
-- every kind: log-sum-exp in window functions, the argmax and its tie rule, written once.
--   log_proba = jll - (top + ln(sum_k exp(jll_k - top))), top the document's largest jll;
--   $term (a class's exp(jll - top)) and $proba are sql/predict/normalise.sql's;
--   rn = 1 marks the predicted class ($rank: sql/predict/argmax.sql of the jll): the largest
--   jll, ties to the first class in sorted order.
-- A NULL jll is -infinity: that class's proba is 0 and its log_proba NULL. If every class of a
-- document is NULL its posterior is undefined (proba NULL) and the first class is predicted.
SELECT
  b.doc_id AS doc_id,
  b.class_id AS class_id,
  b.jll AS jll,
  b.jll - (b.top + LN(CASE WHEN b.total > 0 THEN b.total END)) AS log_proba,
  $proba AS proba,
  $rank AS rn
FROM (
  SELECT
    a.doc_id AS doc_id,
    a.class_id AS class_id,
    a.jll AS jll,
    a.top AS top,
    SUM($term) OVER (PARTITION BY a.doc_id) AS total
  FROM (
    SELECT
      j.doc_id AS doc_id,
      j.class_id AS class_id,
      j.jll AS jll,
      MAX(j.jll) OVER (PARTITION BY j.doc_id) AS top
    FROM $jll AS j
  ) AS a
) AS b
