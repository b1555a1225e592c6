CREATE TABLE IF NOT EXISTS sqlnb_models (
  model STRING,
  kind STRING,
  params STRING,
  label_type STRING,
  n_docs FLOAT64,
  n_classes INT64,
  n_features INT64,
  trained_at DATETIME,
  version STRING
);
