-- The method of model $model's calibration, NULL where it has none (a model's rows have one
-- method: sqlnb.catalog.CALIBRATION). Read alone, or as a column of the model's catalog row
-- (sqlnb.catalog.row): one statement for both.
SELECT MIN(c.method) AS method
FROM sqlnb_calibration AS c
WHERE c.model = $model
