CREATE TABLE IF NOT EXISTS sqlnb_gaussian_stats (
  model VARCHAR,
  class_id BIGINT,
  feature VARCHAR,
  n DOUBLE,
  mean DOUBLE,
  m2 DOUBLE
);
