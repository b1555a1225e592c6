CREATE TABLE IF NOT EXISTS sqlnb_category_log_theta (
  model Nullable(String),
  class_id Nullable(Int64),
  label Nullable(String),
  feature Nullable(String),
  value Nullable(String),
  log_theta Nullable(Float64)
);
