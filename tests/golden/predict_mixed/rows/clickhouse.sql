  SELECT
    "id" AS doc_id,
    CAST("temperature" AS Nullable(Float64)) AS x0
  FROM "patients"
