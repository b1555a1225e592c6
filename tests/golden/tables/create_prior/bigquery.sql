CREATE TABLE IF NOT EXISTS sqlnb_prior (
  model STRING,
  class_id INT64,
  label STRING,
  log_prior FLOAT64
);
