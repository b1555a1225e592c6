  SELECT
    "id" AS doc_id,
    'cough' AS feature,
    CAST("cough" AS TEXT) AS value
  FROM "patients" AS s
  WHERE
    NOT "cough" IS NULL
