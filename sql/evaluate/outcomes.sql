-- One row per labeled document: its true label and the predicted one (both as text, as stored
-- in sqlnb_classes), the posterior probability of the true label (0 if the model does not
-- know that label), of the predicted one (the confidence) and the sum of the squares of its
-- posterior (for the Brier score; the square of a probability below 1e-150 is 0, not an
-- underflow, which PostgreSQL reports as an error). One pass over the posterior, joined by equalities only and grouped per
-- document (a posterior read twice is materialised without statistics on some engines, whose
-- planners then choose a nested loop: quadratic in the documents).
SELECT
  g.doc_id AS doc_id,
  g.true_label AS true_label,
  g.predicted AS predicted,
  COALESCE(g.p_true, CAST(0 AS DOUBLE)) AS p_true,
  COALESCE(g.confidence, CAST(0 AS DOUBLE)) AS confidence,
  COALESCE(g.p_squares, CAST(0 AS DOUBLE)) AS p_squares
FROM (
  SELECT
    y.doc_id AS doc_id,
    CAST(y.label AS VARCHAR) AS true_label,
    MAX(CASE WHEN p.rn = 1 THEN c.label END) AS predicted,
    MAX(CASE WHEN c.label = CAST(y.label AS VARCHAR) THEN p.proba END) AS p_true,
    MAX(CASE WHEN p.rn = 1 THEN p.proba END) AS confidence,
    SUM(CASE WHEN p.proba < 1E-150 THEN 0 ELSE p.proba * p.proba END) AS p_squares
  FROM $truth AS y
  JOIN $posterior AS p
    ON p.doc_id = y.doc_id
  JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
    ON c.class_id = p.class_id
  GROUP BY y.doc_id, y.label
) AS g
