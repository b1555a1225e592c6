-- A table model's Gaussian features: mean and variance per class.
SELECT g.label AS label, g.feature AS feature, g.mean AS mean, g.var AS var
FROM sqlnb_gaussian AS g
WHERE g.model = $model
ORDER BY g.feature, g.class_id
