-- Tokenizing, step 1, in Spark SQL (which has no UNNEST with positions): every match of the
-- token pattern (a Java regular expression) with its position, by POSEXPLODE.
SELECT m.doc_id AS doc_id, m.token AS token, m.pos AS pos
FROM (
  SELECT $id AS doc_id, POSEXPLODE(REGEXP_EXTRACT_ALL($text, $pattern, 0)) AS (pos, token)
  FROM $source AS s
) AS m
