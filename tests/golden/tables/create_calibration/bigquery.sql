CREATE TABLE IF NOT EXISTS sqlnb_calibration (
  model STRING,
  method STRING,
  class_id INT64,
  lo FLOAT64,
  hi FLOAT64,
  a FLOAT64,
  b FLOAT64
);
