CREATE TABLE IF NOT EXISTS sqlnb_gaussian (
  model Nullable(String),
  class_id Nullable(Int64),
  label Nullable(String),
  feature Nullable(String),
  mean Nullable(Float64),
  var Nullable(Float64)
);
