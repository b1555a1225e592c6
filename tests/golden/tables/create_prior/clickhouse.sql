CREATE TABLE IF NOT EXISTS sqlnb_prior (
  model Nullable(String),
  class_id Nullable(Int64),
  label Nullable(String),
  log_prior Nullable(Float64)
);
