CREATE TABLE IF NOT EXISTS sqlnb_models (
  model STRING,
  kind STRING,
  params STRING,
  label_type STRING,
  n_docs DOUBLE,
  n_classes BIGINT,
  n_features BIGINT,
  trained_at TIMESTAMP_NTZ,
  version STRING
)
USING PARQUET
PARTITIONED BY (
  model
);
