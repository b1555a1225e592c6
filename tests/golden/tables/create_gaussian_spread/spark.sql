CREATE TABLE IF NOT EXISTS sqlnb_gaussian_spread (
  model STRING,
  feature STRING,
  n DOUBLE,
  mean DOUBLE,
  m2 DOUBLE
)
USING PARQUET
PARTITIONED BY (
  model
);
