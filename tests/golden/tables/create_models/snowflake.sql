CREATE TABLE IF NOT EXISTS sqlnb_models (
  model VARCHAR,
  kind VARCHAR,
  params VARCHAR,
  label_type VARCHAR,
  n_docs DOUBLE,
  n_classes BIGINT,
  n_features BIGINT,
  trained_at TIMESTAMPNTZ,
  version VARCHAR
);
