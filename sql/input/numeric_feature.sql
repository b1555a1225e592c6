-- One numeric feature of a wide table in long form (doc_id, feature, value). NULL is a missing
-- value: it is left out, so the feature is marginalised for that row.
SELECT
  $id AS doc_id,
  $feature AS feature,
  CAST($column AS DOUBLE) AS value
FROM $source AS s
WHERE $column IS NOT NULL
