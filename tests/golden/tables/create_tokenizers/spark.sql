CREATE TABLE IF NOT EXISTS sqlnb_tokenizers (
  model STRING,
  settings STRING,
  lowercase BOOLEAN,
  pattern STRING,
  ngram_min BIGINT,
  ngram_max BIGINT
)
USING PARQUET
PARTITIONED BY (
  model
);
