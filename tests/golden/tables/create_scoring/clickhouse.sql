CREATE TABLE IF NOT EXISTS sqlnb_scoring (
  model Nullable(String),
  word Nullable(String),
  base Nullable(Int64),
  w0 Nullable(Float64),
  w1 Nullable(Float64),
  w2 Nullable(Float64),
  w3 Nullable(Float64),
  w4 Nullable(Float64),
  w5 Nullable(Float64),
  w6 Nullable(Float64),
  w7 Nullable(Float64)
);
