CREATE TABLE IF NOT EXISTS sqlnb_category_counts (
  model STRING,
  class_id INT64,
  feature STRING,
  value STRING,
  count FLOAT64
);
