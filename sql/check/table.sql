-- What is wrong with a wide table's id column, counted in one pass.
SELECT
  COUNT(*) AS n_rows,
  COUNT(DISTINCT $id) AS n_ids,
  SUM(CASE WHEN $id IS NULL THEN 1 ELSE 0 END) AS null_id
FROM $source AS s
