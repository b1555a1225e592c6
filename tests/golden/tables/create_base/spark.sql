CREATE TABLE IF NOT EXISTS sqlnb_base (
  model STRING,
  class_id BIGINT,
  score DOUBLE,
  n_zero BIGINT,
  presence BOOLEAN
)
USING PARQUET
PARTITIONED BY (
  model
);
