-- One document with two different labels (or, over every row of a docs table, two rows), to
-- name it in the error.
SELECT CAST(l.doc_id AS VARCHAR) AS doc_id
FROM $labels AS l
GROUP BY l.doc_id
HAVING COUNT(*) > 1
ORDER BY 1
LIMIT 1
