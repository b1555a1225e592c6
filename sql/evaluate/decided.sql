-- evaluate's outcomes (the columns and numbers of sql/evaluate/outcomes.sql) in one aggregation
-- over the joint log-likelihood $jll (doc_id, class_id, jll), on engines that gather a group's
-- values into a list (Dialect.lists): no window function over the posterior. Each (document,
-- class) row meets its document's true label and that label's class among the model's (NULL if
-- the model does not know the label). Per document: top, the largest jll; jlls, the list of its
-- jll; class_id, the predicted class (the key of sql/predict/decided.sql:
-- sql/predict/argmax.sql's rule); true_jll, the true class's jll. $total is the sum of the terms
-- exp(jll - top) (sql/predict/list_sum.sql); $p_true and $confidence are
-- sql/predict/normalise.sql's posterior at the true class's jll and at top, $p_squares the sum
-- over the list of every class's posterior squared (0 below 1e-150, as outcomes.sql).
SELECT
  s.doc_id AS doc_id,
  s.true_label AS true_label,
  c.label AS predicted,
  COALESCE(s.p_true, CAST(0 AS DOUBLE)) AS p_true,
  COALESCE(s.confidence, CAST(0 AS DOUBLE)) AS confidence,
  COALESCE(s.p_squares, CAST(0 AS DOUBLE)) AS p_squares
FROM (
  SELECT
    t.doc_id AS doc_id,
    t.true_label AS true_label,
    t.class_id AS class_id,
    $p_true AS p_true,
    $confidence AS confidence,
    $p_squares AS p_squares
  FROM (
    SELECT
      d.doc_id AS doc_id,
      d.true_label AS true_label,
      d.class_id AS class_id,
      d.top AS top,
      d.true_jll AS true_jll,
      d.jlls AS jlls,
      $total AS total
    FROM (
      SELECT
        j.doc_id AS doc_id,
        MAX(y.true_label) AS true_label,
        MAX(j.jll) AS top,
        LIST(j.jll) AS jlls,
        MAX(CASE WHEN j.class_id = y.class_id THEN j.jll END) AS true_jll,
        ARG_MIN(
          j.class_id,
          (CASE WHEN j.jll IS NULL THEN 1 ELSE 0 END, -COALESCE(j.jll, CAST(0 AS DOUBLE)), j.class_id)
        ) AS class_id
      FROM $jll AS j
      JOIN (
        SELECT
          y.doc_id AS doc_id,
          CAST(y.label AS VARCHAR) AS true_label,
          k.class_id AS class_id
        FROM $truth AS y
        LEFT JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS k
          ON k.label = CAST(y.label AS VARCHAR)
      ) AS y
        ON y.doc_id = j.doc_id
      GROUP BY j.doc_id
    ) AS d
  ) AS t
) AS s
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = s.class_id
