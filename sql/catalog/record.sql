-- The catalog row of a freshly trained model. $n_features is the kind's count of features
-- (the vocabulary size for text kinds).
INSERT INTO sqlnb_models (
  model, kind, params, label_type, n_docs, n_classes, n_features, trained_at, version
)
SELECT
  $model AS model,
  $kind AS kind,
  $params AS params,
  $label_type AS label_type,
  c.n_docs AS n_docs,
  c.n_classes AS n_classes,
  $n_features AS n_features,
  CURRENT_TIMESTAMP AS trained_at,
  $version AS version
FROM (
  SELECT SUM(n_docs) AS n_docs, COUNT(*) AS n_classes FROM sqlnb_classes WHERE model = $model
) AS c
