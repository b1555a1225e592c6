-- A labels table, view or query under the user's column names, as distinct (doc_id, label).
SELECT DISTINCT
  $doc AS doc_id,
  $label AS label
FROM $source AS s
