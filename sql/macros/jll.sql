-- sql/predict/jll.sql for the SQL functions, as a UNION ALL of the $base rows (one per document
-- and class) and the $parts rows (at most one more): Spark refuses a function's parameter on
-- the right of a LEFT JOIN. Per (document, class), the base is the base row's (NULL if the
-- class is undefined), the score the parts row's sum, n_zero the sum of both: the same numbers
-- as sql/predict/jll.sql's, by the same rule (sql/predict/joint.sql: $jll of j's columns).
SELECT
  j.doc_id AS doc_id,
  j.class_id AS class_id,
  $jll AS jll
FROM (
  SELECT
    u.doc_id AS doc_id,
    u.class_id AS class_id,
    MAX(u.base) AS base,
    SUM(u.n_zero) AS n_zero,
    SUM(u.score) AS score
  FROM (
    SELECT
      d.doc_id AS doc_id,
      b.class_id AS class_id,
      b.score AS base,
      b.n_zero AS n_zero,
      CAST(0 AS DOUBLE) AS score
    FROM $documents AS d
    CROSS JOIN $base AS b
    UNION ALL
    SELECT s.doc_id, s.class_id, CAST(NULL AS DOUBLE), s.n_zero, s.score
    FROM $parts AS s
  ) AS u
  GROUP BY u.doc_id, u.class_id
) AS j
