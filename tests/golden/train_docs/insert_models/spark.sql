INSERT OVERWRITE TABLE sqlnb_models PARTITION(model = 'spam') (
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
  o.kind,
  o.params,
  o.label_type,
  o.n_docs,
  o.n_classes,
  o.n_features,
  o.trained_at,
  o.version
FROM (
  SELECT
    'spam' AS model,
    'multinomial' AS kind,
    '{"fit_prior": true, "class_prior": null, "prior_alpha": 0.0, "alpha": 1.0, "sublinear_tf": true, "idf": "smooth", "doc_norm": "l2", "class_weight": null, "tokenizer": {"lowercase": true, "pattern": "[\\\\pL\\\\pN]+(?:\'[\\\\pL\\\\pN]+)*", "stop_words": [], "ngrams": [1, 2]}}' AS params,
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
  ) AS c
) AS o;
