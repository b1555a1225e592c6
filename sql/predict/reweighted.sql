-- New class priors at prediction: each class's posterior times $weight, the class's new prior
-- over its training prior (Saerens et al. 2002); sql/predict/renormalise.sql divides by the sum.
SELECT
  p.doc_id AS doc_id,
  p.class_id AS class_id,
  p.jll AS jll,
  COALESCE(p.proba, CAST(0 AS DOUBLE)) * $weight AS value
FROM $posterior AS p
