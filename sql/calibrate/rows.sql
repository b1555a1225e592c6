-- A model's calibration rows, with each class's label, in class order.
SELECT
  k.method AS method,
  k.class_id AS class_id,
  c.label AS label,
  k.lo AS lo,
  k.hi AS hi,
  k.a AS a,
  k.b AS b
FROM sqlnb_calibration AS k
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = k.class_id
WHERE k.model = $model
ORDER BY k.class_id, k.lo
