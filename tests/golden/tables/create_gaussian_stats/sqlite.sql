CREATE TABLE IF NOT EXISTS sqlnb_gaussian_stats (
  model TEXT,
  class_id INTEGER,
  feature TEXT,
  n REAL,
  mean REAL,
  m2 REAL
);
