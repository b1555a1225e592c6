INSERT INTO sqlnb_doc_count (
  model,
  n
)
SELECT
  'spam' AS model,
  CAST(COUNT(DISTINCT l.doc_id) AS REAL) AS n
FROM (
  SELECT DISTINCT
    "id" AS doc_id,
    "label" AS label,
    CAST(1 AS REAL) AS weight
  FROM "emails" AS s
) AS l;
