-- One-vs-rest calibration of the $posterior (a map: sql/calibrate/steps.sql): each calibrated
-- class's probability p mapped by $mapped (over the model's calibration row c whose
-- lo <= p < hi). With two classes only the second is calibrated and the first gets 1 minus it, as scikit-learn's
-- CalibratedClassifierCV; sql/predict/renormalise.sql then divides by the sum.
SELECT
  v.doc_id AS doc_id,
  v.class_id AS class_id,
  v.jll AS jll,
  COALESCE(v.g, 1 - MAX(v.g) OVER (PARTITION BY v.doc_id)) AS value
FROM (
  SELECT
    p.doc_id AS doc_id,
    p.class_id AS class_id,
    p.jll AS jll,
    $mapped AS g
  FROM $posterior AS p
  LEFT JOIN (SELECT class_id, lo, hi, a, b FROM sqlnb_calibration WHERE model = $model) AS c
    ON c.class_id = p.class_id AND p.proba >= c.lo AND p.proba < c.hi
) AS v
