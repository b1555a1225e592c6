CREATE TABLE IF NOT EXISTS sqlnb_transform (
  model STRING,
  word STRING,
  idf DOUBLE,
  sublinear BOOLEAN,
  norm STRING
)
USING PARQUET
PARTITIONED BY (
  model
);
