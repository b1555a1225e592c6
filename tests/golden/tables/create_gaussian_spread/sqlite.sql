CREATE TABLE IF NOT EXISTS sqlnb_gaussian_spread (
  model TEXT,
  feature TEXT,
  n REAL,
  mean REAL,
  m2 REAL
);
