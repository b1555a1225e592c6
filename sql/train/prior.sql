-- Derived: log prior = ln(weight) - ln(total), per class of $classes (class_id, label,
-- n_docs: the model's stored classes, sql/train/stored_classes.sql, or those a training has
-- just surveyed, sql/train/known_class.sql). The caller binds $weight, an expression over
-- those columns (n_docs + prior_alpha when learned, 1 when uniform, the given probability
-- otherwise), and $total (SUM($weight) OVER (), or 1 for given priors, which are used as they
-- are). A weight of 0 gives NULL: a prior of 0.
INSERT INTO sqlnb_prior (model, class_id, label, log_prior)
SELECT
  $model AS model,
  w.class_id AS class_id,
  w.label AS label,
  CASE WHEN w.weight > 0 THEN LN(w.weight) - LN(w.total) END AS log_prior
FROM (
  SELECT
    c.class_id AS class_id,
    c.label AS label,
    CAST($weight AS DOUBLE) AS weight,
    CAST($total AS DOUBLE) AS total
  FROM $classes AS c
) AS w
