-- One row per labeled document: its true label and the predicted one (both as text, as stored
-- in sqlnb_classes), the posterior probability of the true label (0 if the model does not
-- know that label), of the predicted one (the confidence) and the sum of the squares of its
-- posterior (for the Brier score; the square of a probability below 1e-150 is 0, not an
-- underflow, which PostgreSQL reports as an error). One pass over the posterior; the true
-- labels are added to it by a UNION ALL grouped per (document, label), then per document, not
-- by a join: no join of the documents' labels with their posterior whose plan an engine can
-- get wrong (SQLite scanned the labels once per row of the posterior: quadratic in the
-- documents; a posterior read twice is materialised without statistics on some engines).
-- On an engine with lists, without a calibration map: sql/evaluate/decided.sql, the same rows
-- from one aggregation over the joint log-likelihood.
SELECT
  g.doc_id AS doc_id,
  g.true_label AS true_label,
  g.predicted AS predicted,
  COALESCE(g.p_true, CAST(0 AS DOUBLE)) AS p_true,
  COALESCE(g.confidence, CAST(0 AS DOUBLE)) AS confidence,
  COALESCE(g.p_squares, CAST(0 AS DOUBLE)) AS p_squares
FROM (
  SELECT
    k.doc_id AS doc_id,
    MAX(CASE WHEN k.is_true = 1 THEN k.label END) AS true_label,
    MAX(CASE WHEN k.is_top = 1 THEN k.label END) AS predicted,
    MAX(CASE WHEN k.is_true = 1 THEN k.proba END) AS p_true,
    MAX(CASE WHEN k.is_top = 1 THEN k.proba END) AS confidence,
    SUM(CASE WHEN k.proba < 1E-150 THEN 0 ELSE k.proba * k.proba END) AS p_squares
  FROM (
    SELECT
      u.doc_id AS doc_id,
      u.label AS label,
      MAX(u.is_true) AS is_true,
      MAX(u.is_top) AS is_top,
      MAX(u.proba) AS proba
    FROM (
      SELECT
        y.doc_id AS doc_id,
        CAST(y.label AS VARCHAR) AS label,
        1 AS is_true,
        0 AS is_top,
        CAST(NULL AS DOUBLE) AS proba
      FROM $truth AS y
      UNION ALL
      SELECT
        p.doc_id AS doc_id,
        c.label AS label,
        0 AS is_true,
        CASE WHEN p.rn = 1 THEN 1 ELSE 0 END AS is_top,
        p.proba AS proba
      FROM $posterior AS p
      JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
        ON c.class_id = p.class_id
    ) AS u
    GROUP BY u.doc_id, u.label
  ) AS k
  GROUP BY k.doc_id
  HAVING MAX(k.is_true) = 1
) AS g
