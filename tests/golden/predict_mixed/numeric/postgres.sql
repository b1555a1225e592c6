  SELECT
    "id" AS doc_id,
    'temperature' AS feature,
    CAST("temperature" AS DOUBLE PRECISION) AS value
  FROM "patients" AS s
  WHERE
    NOT "temperature" IS NULL
