CREATE TABLE IF NOT EXISTS sqlnb_gaussian_stats (
  model STRING,
  class_id BIGINT,
  feature STRING,
  n DOUBLE,
  mean DOUBLE,
  m2 DOUBLE
)
USING PARQUET
PARTITIONED BY (
  model
);
