-- The joint log-likelihood of every (document, class), for every kind: the kind's per-class
-- $base (class_id, score, n_zero) plus its per-document $parts (doc_id, class_id, score, n_zero;
-- one row per document and class). n_zero counts factors of probability 0; where the total is
-- positive the jll is NULL, meaning -infinity. A document without parts (no known word) gets the
-- base alone.
SELECT
  d.doc_id AS doc_id,
  b.class_id AS class_id,
  CASE
    WHEN b.score IS NULL OR b.n_zero + COALESCE(s.n_zero, 0) > 0 THEN NULL
    ELSE b.score + COALESCE(s.score, 0)
  END AS jll
FROM $documents AS d
CROSS JOIN $base AS b
LEFT JOIN $parts AS s
  ON s.doc_id = d.doc_id AND s.class_id = b.class_id
