-- The predicted class of every document and its posterior, in one aggregation over the joint
-- log-likelihood $jll (doc_id, class_id, jll), on engines that gather a group's values into a
-- list (Dialect.lists): the rows of sql/predict/posterior.sql with rn = 1, the same numbers,
-- without its window functions. Per document: top, the largest jll; class_id, the class of the
-- smallest key (a NULL jll after every other, then the largest jll, then the first class in
-- sorted order: sql/predict/argmax.sql's rule; the key holds the class, so no two are equal and
-- the engine's own tie rule for ARG_MIN never decides); jlls, the list of its jll, whose $total
-- (sql/predict/list_sum.sql) is the sum of the terms exp(jll - top) of sql/predict/normalise.sql;
-- $proba, normalise.sql's posterior at jll = top (t's top and total). rn is 1: every row is a
-- document's prediction. A ClickHouse or Spark list leaves NULLs out, DuckDB's keeps them (their
-- term is 0).
SELECT
  t.doc_id AS doc_id,
  t.class_id AS class_id,
  $proba AS proba,
  1 AS rn
FROM (
  SELECT
    d.doc_id AS doc_id,
    d.class_id AS class_id,
    d.top AS top,
    $total AS total
  FROM (
    SELECT
      j.doc_id AS doc_id,
      MAX(j.jll) AS top,
      LIST(j.jll) AS jlls,
      ARG_MIN(
        j.class_id,
        (CASE WHEN j.jll IS NULL THEN 1 ELSE 0 END, -COALESCE(j.jll, CAST(0 AS DOUBLE)), j.class_id)
      ) AS class_id
    FROM $jll AS j
    GROUP BY j.doc_id
  ) AS d
) AS t
