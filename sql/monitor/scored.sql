-- The posteriors (doc_id, class_id, proba) of $scored's documents in window $n of $windows:
-- what Saerens et al.'s EM (predict/priors.sql) estimates the window's priors from.
SELECT
  s.doc_id AS doc_id,
  s.class_id AS class_id,
  s.proba AS proba
FROM $scored AS s
JOIN $windows AS w
  ON w.doc_id = s.doc_id
WHERE w.n = $n
