CREATE TABLE IF NOT EXISTS sqlnb_gaussian_stats (
  model TEXT,
  class_id BIGINT,
  feature TEXT,
  n DOUBLE PRECISION,
  mean DOUBLE PRECISION,
  m2 DOUBLE PRECISION
);
