-- sql/predict/jll.sql for the SQL functions, as a UNION ALL of the $base rows (one per document
-- and class) and the $parts rows (at most one more): Spark refuses a function's parameter on
-- the right of a LEFT JOIN. Each (document, class) adds at most two scores, so the sum is the
-- same number as b.score + COALESCE(s.score, 0). A NULL base score (undefined) stays NULL.
SELECT
  u.doc_id AS doc_id,
  u.class_id AS class_id,
  CASE
    WHEN MAX(u.undefined) = 1 OR SUM(u.n_zero) > 0 THEN NULL
    ELSE SUM(u.score)
  END AS jll
FROM (
  SELECT
    d.doc_id AS doc_id,
    b.class_id AS class_id,
    b.score AS score,
    b.n_zero AS n_zero,
    CASE WHEN b.score IS NULL THEN 1 ELSE 0 END AS undefined
  FROM $documents AS d
  CROSS JOIN $base AS b
  UNION ALL
  SELECT s.doc_id, s.class_id, s.score, s.n_zero, 0
  FROM $parts AS s
) AS u
GROUP BY u.doc_id, u.class_id
