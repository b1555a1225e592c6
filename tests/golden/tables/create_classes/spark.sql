CREATE TABLE IF NOT EXISTS sqlnb_classes (
  model STRING,
  class_id BIGINT,
  label STRING,
  n_docs DOUBLE
)
USING PARQUET
PARTITIONED BY (
  model
);
