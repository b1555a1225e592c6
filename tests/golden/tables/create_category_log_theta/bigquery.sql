CREATE TABLE IF NOT EXISTS sqlnb_category_log_theta (
  model STRING,
  class_id INT64,
  label STRING,
  feature STRING,
  value STRING,
  log_theta FLOAT64
);
