  SELECT
    "id" AS doc_id,
    CAST("temperature" AS DOUBLE PRECISION) AS x0
  FROM "patients"
