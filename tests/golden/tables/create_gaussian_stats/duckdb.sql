CREATE TABLE IF NOT EXISTS sqlnb_gaussian_stats (
  model TEXT,
  class_id BIGINT,
  feature TEXT,
  n DOUBLE,
  mean DOUBLE,
  m2 DOUBLE
);
