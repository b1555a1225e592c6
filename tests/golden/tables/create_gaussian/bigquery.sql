CREATE TABLE IF NOT EXISTS sqlnb_gaussian (
  model STRING,
  class_id INT64,
  label STRING,
  feature STRING,
  mean FLOAT64,
  var FLOAT64
);
