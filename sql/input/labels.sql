-- A labels table, view or query under the user's column names, as distinct
-- (doc_id, label, weight); $weight is the sample-weight column, or 1.
SELECT DISTINCT
  $doc AS doc_id,
  $label AS label,
  CAST($weight AS DOUBLE) AS weight
FROM $source AS s
