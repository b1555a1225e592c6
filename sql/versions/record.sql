-- A new version of model $model_name, current (kept under the name itself): numbered one past the
-- highest number the name was ever given (kept and dropped versions), made by $command at
-- $created, with the catalog's documents (n_docs) and words (n_features) of the model.
INSERT INTO sqlnb_versions (model, name, version, created, command, documents, words)
SELECT
  $model_name AS model,
  $model_name AS name,
  COALESCE((SELECT MAX(v.version) FROM sqlnb_versions AS v WHERE v.name = $model_name), 0) + 1
    AS version,
  $created AS created,
  $command AS command,
  m.n_docs AS documents,
  m.n_features AS words
FROM sqlnb_models AS m
WHERE m.model = $model_name
