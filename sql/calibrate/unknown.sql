-- A true label of the calibration documents that the model does not know, if any.
SELECT MIN(CAST(y.label AS VARCHAR)) AS label
FROM $truth AS y
WHERE CAST(y.label AS VARCHAR) NOT IN (SELECT label FROM sqlnb_classes WHERE model = $model)
