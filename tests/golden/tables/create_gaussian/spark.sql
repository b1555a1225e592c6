CREATE TABLE IF NOT EXISTS sqlnb_gaussian (
  model STRING,
  class_id BIGINT,
  label STRING,
  feature STRING,
  mean DOUBLE,
  var DOUBLE
)
USING PARQUET
PARTITIONED BY (
  model
);
