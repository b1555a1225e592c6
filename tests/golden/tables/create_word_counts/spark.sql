CREATE TABLE IF NOT EXISTS sqlnb_word_counts (
  model STRING,
  class_id BIGINT,
  word STRING,
  count DOUBLE
)
USING PARQUET
PARTITIONED BY (
  model
);
