CREATE TABLE IF NOT EXISTS sqlnb_base (
  model Nullable(String),
  class_id Nullable(Int64),
  score Nullable(Float64),
  n_zero Nullable(Int64),
  presence Nullable(Bool)
);
