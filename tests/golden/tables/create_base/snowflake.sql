CREATE TABLE IF NOT EXISTS sqlnb_base (
  model VARCHAR,
  class_id BIGINT,
  score DOUBLE,
  n_zero BIGINT,
  presence BOOLEAN
);
