-- Tokenizing, step 1, in Trino: every match of the token pattern (Trino's regular expressions:
-- regexp_extract_all) with its position, by UNNEST WITH ORDINALITY.
SELECT x.doc_id AS doc_id, t.token AS token, t.pos AS pos
FROM (SELECT :id AS doc_id, REGEXP_EXTRACT_ALL(:text, :pattern) AS tokens FROM :source AS s) AS x
CROSS JOIN UNNEST(x.tokens) WITH ORDINALITY AS t(token, pos)
