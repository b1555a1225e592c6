CREATE TABLE IF NOT EXISTS sqlnb_category_log_theta (
  model TEXT,
  class_id BIGINT,
  label TEXT,
  feature TEXT,
  value TEXT,
  log_theta DOUBLE PRECISION
);
