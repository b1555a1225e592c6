CREATE TABLE IF NOT EXISTS sqlnb_prior (
  model STRING,
  class_id BIGINT,
  label STRING,
  log_prior DOUBLE
)
USING PARQUET
PARTITIONED BY (
  model
);
