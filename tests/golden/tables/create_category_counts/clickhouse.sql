CREATE TABLE IF NOT EXISTS sqlnb_category_counts (
  model Nullable(String),
  class_id Nullable(Int64),
  feature Nullable(String),
  value Nullable(String),
  count Nullable(Float64)
);
