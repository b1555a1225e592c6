-- The version rows of model $model_name, in version order: where each is kept (model), when and by
-- which command it was made, its documents and words.
SELECT
  v.model AS model,
  v.version AS version,
  CAST(v.created AS VARCHAR) AS created,
  v.command AS command,
  v.documents AS documents,
  v.words AS words
FROM sqlnb_versions AS v
WHERE v.name = $model_name
ORDER BY v.version
