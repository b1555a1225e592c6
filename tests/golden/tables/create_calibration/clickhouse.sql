CREATE TABLE IF NOT EXISTS sqlnb_calibration (
  model Nullable(String),
  method Nullable(String),
  class_id Nullable(Int64),
  lo Nullable(Float64),
  hi Nullable(Float64),
  a Nullable(Float64),
  b Nullable(Float64)
);
