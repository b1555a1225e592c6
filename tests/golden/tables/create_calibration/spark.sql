CREATE TABLE IF NOT EXISTS sqlnb_calibration (
  model STRING,
  method STRING,
  class_id BIGINT,
  lo DOUBLE,
  hi DOUBLE,
  a DOUBLE,
  b DOUBLE
)
USING PARQUET
PARTITIONED BY (
  model
);
