CREATE TABLE IF NOT EXISTS sqlnb_prior (
  model VARCHAR,
  class_id BIGINT,
  label VARCHAR,
  log_prior DOUBLE
);
