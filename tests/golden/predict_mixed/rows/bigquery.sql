  SELECT
    `id` AS doc_id,
    CAST(`temperature` AS FLOAT64) AS x0
  FROM `patients`
