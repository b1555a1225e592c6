CREATE TABLE IF NOT EXISTS sqlnb_gaussian_spread (
  model Nullable(String),
  feature Nullable(String),
  n Nullable(Float64),
  mean Nullable(Float64),
  m2 Nullable(Float64)
);
