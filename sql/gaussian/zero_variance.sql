-- A Gaussian variance that is exactly 0 (a constant feature with var_smoothing 0), to name it.
SELECT g.feature AS feature, g.label AS label
FROM sqlnb_gaussian AS g
WHERE g.model = $model AND NOT (g.var > 0)
ORDER BY g.feature, g.class_id
LIMIT 1
