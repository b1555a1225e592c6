CREATE TABLE IF NOT EXISTS sqlnb_transform (
  model Nullable(String),
  word Nullable(String),
  idf Nullable(Float64),
  sublinear Nullable(Bool),
  norm Nullable(String)
);
