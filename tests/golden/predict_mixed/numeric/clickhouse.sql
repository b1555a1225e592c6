  SELECT
    "id" AS doc_id,
    'temperature' AS feature,
    CAST("temperature" AS Nullable(Float64)) AS value
  FROM "patients" AS s
  WHERE
    NOT (
      "temperature" IS NULL
    )
