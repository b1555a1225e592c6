CREATE TABLE IF NOT EXISTS sqlnb_gaussian_spread (
  model TEXT,
  feature TEXT,
  n DOUBLE,
  mean DOUBLE,
  m2 DOUBLE
);
