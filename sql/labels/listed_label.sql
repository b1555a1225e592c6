-- Hierarchical labels in DuckDB's SQL functions: sqlnb_classify's label and sqlnb_proba's
-- probability, the $walked ones (sql/labels/walk.sql at the model's confidence) for a model
-- with a separator, else the flat ones of $scored (sql/labels/scored.sql).
SELECT
  CASE WHEN s.sep IS NULL THEN s.label ELSE w.label END AS label,
  CASE WHEN s.sep IS NULL THEN s.proba ELSE w.proba END AS proba
FROM $scored AS s
LEFT JOIN $walked AS w
  ON TRUE
