INSERT INTO sqlnb_models (
  model,
  kind,
  params,
  label_type,
  n_docs,
  n_classes,
  n_features,
  trained_at,
  version
)
SELECT
  'spam' AS model,
  'bernoulli' AS kind,
  '{"fit_prior": true, "class_prior": null, "prior_alpha": 0.0, "alpha": 1.0, "beta": null, "class_weight": null}' AS params,
  'VARCHAR' AS label_type,
  c.n_docs AS n_docs,
  c.n_classes AS n_classes,
  (
    SELECT
      COUNT(*) AS n_features
    FROM sqlnb_scoring AS s
    WHERE
      s.model = 'spam' AND s.base = 0
  ) AS n_features,
  CURRENT_TIMESTAMP() AS trained_at,
  '<version>' AS version
FROM (
  SELECT
    SUM(n_docs) AS n_docs,
    COUNT(*) AS n_classes
  FROM sqlnb_classes
  WHERE
    model = 'spam'
) AS c;
