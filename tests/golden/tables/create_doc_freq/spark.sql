CREATE TABLE IF NOT EXISTS sqlnb_doc_freq (
  model STRING,
  word STRING,
  df DOUBLE
)
USING PARQUET
PARTITIONED BY (
  model
);
