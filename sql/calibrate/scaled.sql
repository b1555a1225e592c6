-- The scale step of a calibration (sql/calibrate/steps.sql): the joint log-likelihood of every
-- (document, class) of $jll divided by the model's T (its calibration rows' a), so that the
-- posterior is softmax(jll / T).
SELECT
  j.doc_id AS doc_id,
  j.class_id AS class_id,
  j.jll / t.a AS jll
FROM $jll AS j
JOIN (SELECT class_id, a FROM sqlnb_calibration WHERE model = $model) AS t
  ON t.class_id = j.class_id
