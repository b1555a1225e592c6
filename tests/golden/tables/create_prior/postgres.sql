CREATE TABLE IF NOT EXISTS sqlnb_prior (
  model TEXT,
  class_id BIGINT,
  label TEXT,
  log_prior DOUBLE PRECISION
);
