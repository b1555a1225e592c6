-- Tokenizing, step 1, in BigQuery (GoogleSQL): every match of the token pattern (RE2, as
-- DuckDB's: REGEXP_EXTRACT_ALL) with its position, by UNNEST WITH OFFSET (positions from 0:
-- only their order counts).
SELECT x.doc_id AS doc_id, token, pos
FROM (SELECT @id AS doc_id, REGEXP_EXTRACT_ALL(@text, @pattern) AS tokens FROM @source AS s) AS x
CROSS JOIN UNNEST(x.tokens) AS token WITH OFFSET AS pos
