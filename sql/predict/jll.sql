-- The joint log-likelihood of every (document, class), for every kind: the kind's per-class
-- $base (class_id, score, n_zero) plus its per-document $parts (doc_id, class_id, score, n_zero;
-- one row per document and class), by the rule of sql/predict/joint.sql ($jll, of the columns
-- base, n_zero and score of j). A document without parts (no known word) gets the base alone.
SELECT
  j.doc_id AS doc_id,
  j.class_id AS class_id,
  $jll AS jll
FROM (
  SELECT
    d.doc_id AS doc_id,
    b.class_id AS class_id,
    b.score AS base,
    b.n_zero + COALESCE(s.n_zero, 0) AS n_zero,
    COALESCE(s.score, 0) AS score
  FROM $documents AS d
  CROSS JOIN $base AS b
  LEFT JOIN $parts AS s
    ON s.doc_id = d.doc_id AND s.class_id = b.class_id
) AS j
