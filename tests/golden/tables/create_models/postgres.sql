CREATE TABLE IF NOT EXISTS sqlnb_models (
  model TEXT,
  kind TEXT,
  params TEXT,
  label_type TEXT,
  n_docs DOUBLE PRECISION,
  n_classes BIGINT,
  n_features BIGINT,
  trained_at TIMESTAMP,
  version TEXT
);
