-- The $documents to classify, while the model is still the one the prediction was built for:
-- the catalog row of $model has the $trained_at it was loaded with, and $calibrated holds
-- (the calibration's method is still the one the prediction applies, or TRUE where it applies
-- none: it then reads no calibration row). Otherwise $stale: a call
-- that fails the query where the engine has one (DuckDB error(), Spark raise_error()), else
-- NULL, so that the prediction is empty rather than built for one model and run on another
-- (sqlnb then re-reads the catalog and reports it). One statement reads one snapshot.
SELECT d.doc_id AS doc_id
FROM $documents AS d
CROSS JOIN (
  SELECT
    CASE
      WHEN MAX(CAST(m.trained_at AS VARCHAR)) = $trained_at AND $calibrated THEN 1
      ELSE $stale
    END AS current
  FROM sqlnb_models AS m
  WHERE m.model = $model
) AS g
WHERE g.current = 1
