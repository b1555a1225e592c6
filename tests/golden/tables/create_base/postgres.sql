CREATE TABLE IF NOT EXISTS sqlnb_base (
  model TEXT,
  class_id BIGINT,
  score DOUBLE PRECISION,
  n_zero BIGINT,
  presence BOOLEAN
);
