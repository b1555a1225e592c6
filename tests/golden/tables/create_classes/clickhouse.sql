CREATE TABLE IF NOT EXISTS sqlnb_classes (
  model Nullable(String),
  class_id Nullable(Int64),
  label Nullable(String),
  n_docs Nullable(Float64)
);
