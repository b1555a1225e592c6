CREATE TABLE IF NOT EXISTS sqlnb_category_log_theta (
  model STRING,
  class_id BIGINT,
  label STRING,
  feature STRING,
  value STRING,
  log_theta DOUBLE
)
USING PARQUET
PARTITIONED BY (
  model
);
