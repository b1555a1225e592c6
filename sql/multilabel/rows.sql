-- Multi-label models in the rows form of any model (Spark's SQL functions: sqlnb/functions/
-- rows.py), one row per document of $posterior (the flat posterior, rn = 1 its label) and
-- $binary (each label's binary probability: sql/multilabel/posterior.sql), both of the model
-- sqlnb_model. For a model that stores a threshold ($modes: sql/multilabel/modes.sql) label is
-- $listed (sql/multilabel/sorted.sql: the labels whose binary probability is at or above it,
-- in class order, the labels' sorted order), $empty when none, and proba the largest binary
-- probability; for any other model its label as a list of one (none if NULL) and its proba.
-- (The model in WHERE, not in ON: Spark refuses a function's parameter in a join condition.)
SELECT
  s.doc_id AS doc_id,
  CASE
    WHEN s.threshold IS NULL THEN
      CASE WHEN s.label IS NULL THEN $empty ELSE [s.label] END
    ELSE COALESCE(s.labels, $empty)
  END AS label,
  CASE WHEN s.threshold IS NULL THEN s.proba ELSE s.top END AS proba
FROM (
  SELECT
    p.doc_id AS doc_id,
    MAX(g.threshold) AS threshold,
    MAX(CASE WHEN p.rn = 1 THEN c.label END) AS label,
    MAX(CASE WHEN p.rn = 1 THEN p.proba END) AS proba,
    $listed AS labels,
    MAX(b.proba) AS top
  FROM $posterior AS p
  JOIN $binary AS b
    ON b.doc_id = p.doc_id AND b.class_id = p.class_id
  JOIN sqlnb_classes AS c
    ON c.class_id = p.class_id
  JOIN $modes AS g
    ON TRUE
  WHERE c.model = sqlnb_model AND g.model = sqlnb_model
  GROUP BY p.doc_id
) AS s
