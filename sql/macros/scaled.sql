-- sql/calibrate/scaled.sql for the SQL functions, whose model is a parameter (sqlnb_model) that
-- Spark refuses in a join condition or on the right of a LEFT JOIN: the $jll rows UNION ALL
-- those of a model whose calibration scales ($steps: sql/calibrate/steps.sql) with its T,
-- grouped; jll / T, or jll without one.
SELECT
  u.doc_id AS doc_id,
  u.class_id AS class_id,
  MAX(u.jll) / COALESCE(MAX(u.t), CAST(1 AS DOUBLE)) AS jll
FROM (
  SELECT j.doc_id AS doc_id, j.class_id AS class_id, j.jll AS jll, CAST(NULL AS DOUBLE) AS t
  FROM $jll AS j
  UNION ALL
  SELECT j.doc_id, j.class_id, CAST(NULL AS DOUBLE), k.scale
  FROM $jll AS j
  JOIN $steps AS k
    ON k.class_id = j.class_id
  WHERE k.model = sqlnb_model AND k.scale IS NOT NULL
) AS u
GROUP BY u.doc_id, u.class_id
