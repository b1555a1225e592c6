-- The catalog, for `sqlnb models` and for loading a model.
SELECT
  m.model AS model,
  m.kind AS kind,
  m.params AS params,
  m.label_type AS label_type,
  m.n_docs AS n_docs,
  m.n_classes AS n_classes,
  m.n_features AS n_features,
  CAST(m.trained_at AS VARCHAR) AS trained_at,
  m.version AS version
FROM sqlnb_models AS m
ORDER BY m.model
