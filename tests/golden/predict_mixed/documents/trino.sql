  SELECT DISTINCT
    "id" AS doc_id
  FROM "patients" AS s
