CREATE TABLE IF NOT EXISTS sqlnb_base (
  model STRING,
  class_id INT64,
  score FLOAT64,
  n_zero INT64,
  presence BOOL
);
