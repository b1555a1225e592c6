-- sql/calibrate/calibrated.sql and sql/predict/renormalise.sql for the SQL functions, for any
-- model (sqlnb_model, a parameter: see sql/macros/scaled.sql): the $posterior rows UNION ALL,
-- for a model whose calibration maps ($steps: sql/calibrate/steps.sql), each calibrated class's
-- mapped probability ($mapped over its calibration row k), grouped. A document of a calibrated model gets the
-- renormalised values and their argmax ($rank: sql/predict/argmax.sql of calibrated_proba, ties
-- to the first class); any other keeps its posterior.
SELECT
  n.doc_id AS doc_id,
  n.class_id AS class_id,
  n.jll AS jll,
  CASE WHEN n.calibrated = 1 THEN n.calibrated_proba ELSE n.proba END AS proba,
  CASE
    WHEN n.calibrated = 1
      THEN $rank
    ELSE n.rn
  END AS rn
FROM (
  SELECT
    v.doc_id AS doc_id,
    v.class_id AS class_id,
    v.jll AS jll,
    v.proba AS proba,
    v.rn AS rn,
    v.calibrated AS calibrated,
    CASE
      WHEN SUM(v.value) OVER (PARTITION BY v.doc_id) > 0
        THEN v.value / SUM(v.value) OVER (PARTITION BY v.doc_id)
      ELSE CAST(1 AS DOUBLE) / COUNT(*) OVER (PARTITION BY v.doc_id)
    END AS calibrated_proba
  FROM (
    SELECT
      g.doc_id AS doc_id,
      g.class_id AS class_id,
      g.jll AS jll,
      g.proba AS proba,
      g.rn AS rn,
      MAX(g.calibrated) OVER (PARTITION BY g.doc_id) AS calibrated,
      COALESCE(g.g, 1 - MAX(g.g) OVER (PARTITION BY g.doc_id)) AS value
    FROM (
      SELECT
        u.doc_id AS doc_id,
        u.class_id AS class_id,
        MAX(u.jll) AS jll,
        MAX(u.proba) AS proba,
        MAX(u.rn) AS rn,
        MAX(u.g) AS g,
        MAX(u.calibrated) AS calibrated
      FROM (
        SELECT
          p.doc_id AS doc_id,
          p.class_id AS class_id,
          p.jll AS jll,
          p.proba AS proba,
          p.rn AS rn,
          CAST(NULL AS DOUBLE) AS g,
          0 AS calibrated
        FROM $posterior AS p
        UNION ALL
        SELECT
          p.doc_id,
          p.class_id,
          CAST(NULL AS DOUBLE),
          CAST(NULL AS DOUBLE),
          CAST(NULL AS BIGINT),
          $mapped,
          1
        FROM $posterior AS p
        JOIN $steps AS k
          ON k.class_id = p.class_id AND p.proba >= k.lo AND p.proba < k.hi
        WHERE k.model = sqlnb_model AND k.mapped
      ) AS u
      GROUP BY u.doc_id, u.class_id
    ) AS g
  ) AS v
) AS n
