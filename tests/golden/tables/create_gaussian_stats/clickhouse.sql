CREATE TABLE IF NOT EXISTS sqlnb_gaussian_stats (
  model Nullable(String),
  class_id Nullable(Int64),
  feature Nullable(String),
  n Nullable(Float64),
  mean Nullable(Float64),
  m2 Nullable(Float64)
);
