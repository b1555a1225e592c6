-- A model's calibration as every scoring form applies it (its methods named once, in
-- sqlnb.catalog.METHODS: $scaled is the one that scales): per row of sqlnb_calibration, scale,
-- the T that divides the joint log-likelihood before the posterior (NULL for the other
-- methods), and mapped, whether the row is a piece of a one-vs-rest map of the posterior
-- (lo <= p < hi, p mapped by sqlnb.pipeline.mapping of its method, a and b).
SELECT
  k.model AS model,
  k.method AS method,
  k.class_id AS class_id,
  k.lo AS lo,
  k.hi AS hi,
  k.a AS a,
  k.b AS b,
  CASE WHEN k.method = $scaled THEN k.a END AS scale,
  k.method <> $scaled AS mapped
FROM sqlnb_calibration AS k
