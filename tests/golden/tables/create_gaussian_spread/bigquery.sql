CREATE TABLE IF NOT EXISTS sqlnb_gaussian_spread (
  model STRING,
  feature STRING,
  n FLOAT64,
  mean FLOAT64,
  m2 FLOAT64
);
