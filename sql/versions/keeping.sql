-- The version rows of model $model_name once a write replaced its current version: the new one,
-- current (number $version, made by $command now, with the catalog's $documents documents and
-- $words words), and the ones under the name before it (the replaced version), under the key
-- $kept. Where one overwrite of both keys' partitions writes them (sqlnb.versions.keeping).
SELECT
  $model_name AS name,
  CAST($version AS BIGINT) AS version,
  CURRENT_TIMESTAMP AS created,
  $command AS command,
  CAST($documents AS DOUBLE) AS documents,
  CAST($words AS BIGINT) AS words,
  $model_name AS model
UNION ALL
SELECT
  v.name AS name,
  v.version AS version,
  v.created AS created,
  v.command AS command,
  v.documents AS documents,
  v.words AS words,
  $kept AS model
FROM sqlnb_versions AS v
WHERE v.model = $model_name
