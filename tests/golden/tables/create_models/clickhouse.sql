CREATE TABLE IF NOT EXISTS sqlnb_models (
  model Nullable(String),
  kind Nullable(String),
  params Nullable(String),
  label_type Nullable(String),
  n_docs Nullable(Float64),
  n_classes Nullable(Int64),
  n_features Nullable(Int64),
  trained_at Nullable(DateTime64(6)),
  version Nullable(String)
);
