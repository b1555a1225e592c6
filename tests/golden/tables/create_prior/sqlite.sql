CREATE TABLE IF NOT EXISTS sqlnb_prior (
  model TEXT,
  class_id INTEGER,
  label TEXT,
  log_prior REAL
);
