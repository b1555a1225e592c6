-- Tokenizing, step 1, in SQLite (which has no regular expressions, and whose LOWER is ASCII
-- only; placeholders are :name in SQLite's syntax): sqlnb registers
-- sqlnb_tokens(text, pattern, lowercase) on the connection, a JSON array of the pattern's
-- matches (Python's re), and JSON_EACH gives them with their positions.
SELECT s.doc_id AS doc_id, j.value AS token, j.key AS pos
FROM (SELECT :id AS doc_id, :text AS text FROM :source AS x) AS s
CROSS JOIN JSON_EACH(SQLNB_TOKENS(s.text, :pattern, :lowercase)) AS j
