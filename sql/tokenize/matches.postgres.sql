-- Tokenizing, step 1, in PostgreSQL: every match of the token pattern (a POSIX regular
-- expression, PostgreSQL's own flavour) with its position, by REGEXP_MATCHES WITH ORDINALITY.
SELECT s.doc_id AS doc_id, m.match[1] AS token, m.pos AS pos
FROM (SELECT $id AS doc_id, $text AS text FROM $source AS x) AS s
CROSS JOIN LATERAL REGEXP_MATCHES(s.text, $pattern, 'g') WITH ORDINALITY AS m(match, pos)
