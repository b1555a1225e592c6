  SELECT DISTINCT
    "id" AS doc_id
  FROM "emails" AS s
