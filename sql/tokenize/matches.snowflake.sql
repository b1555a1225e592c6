-- Tokenizing, step 1, in Snowflake: every match of the token pattern (Snowflake's POSIX
-- extended regular expressions: REGEXP_SUBSTR_ALL) with its position, by LATERAL FLATTEN.
SELECT x.doc_id AS doc_id, CAST(f.value AS VARCHAR) AS token, f.index AS pos
FROM (SELECT $id AS doc_id, REGEXP_SUBSTR_ALL($text, $pattern) AS tokens FROM $source AS s) AS x,
  LATERAL FLATTEN(INPUT => x.tokens) AS f
