CREATE TABLE IF NOT EXISTS sqlnb_gaussian_spread (
  model TEXT,
  feature TEXT,
  n DOUBLE PRECISION,
  mean DOUBLE PRECISION,
  m2 DOUBLE PRECISION
);
