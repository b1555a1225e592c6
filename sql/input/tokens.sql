-- A tokens table, view or query under the user's column names, as (doc_id, word, count).
-- $count is a column, or the number 1 when the table has no count column.
SELECT
  $doc AS doc_id,
  CAST($word AS VARCHAR) AS word,
  CAST($count AS DOUBLE) AS count
FROM $source AS s
