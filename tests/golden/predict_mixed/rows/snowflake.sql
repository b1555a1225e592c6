  SELECT
    "id" AS doc_id,
    CAST("temperature" AS DOUBLE) AS x0
  FROM "patients"
