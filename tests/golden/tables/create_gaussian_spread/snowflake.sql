CREATE TABLE IF NOT EXISTS sqlnb_gaussian_spread (
  model VARCHAR,
  feature VARCHAR,
  n DOUBLE,
  mean DOUBLE,
  m2 DOUBLE
);
