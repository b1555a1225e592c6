  SELECT DISTINCT
    "doc_id" AS doc_id,
    "label" AS label,
    CAST(1 AS DOUBLE) AS weight
  FROM "labels" AS s
