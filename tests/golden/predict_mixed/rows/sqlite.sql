  SELECT
    "id" AS doc_id,
    CAST("temperature" AS REAL) AS x0
  FROM "patients"
