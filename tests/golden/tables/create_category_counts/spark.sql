CREATE TABLE IF NOT EXISTS sqlnb_category_counts (
  model STRING,
  class_id BIGINT,
  feature STRING,
  value STRING,
  count DOUBLE
)
USING PARQUET
PARTITIONED BY (
  model
);
