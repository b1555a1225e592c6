CREATE TABLE IF NOT EXISTS sqlnb_gaussian_stats (
  model STRING,
  class_id INT64,
  feature STRING,
  n FLOAT64,
  mean FLOAT64,
  m2 FLOAT64
);
