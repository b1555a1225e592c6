CREATE TABLE IF NOT EXISTS sqlnb_category_log_theta (
  model VARCHAR,
  class_id BIGINT,
  label VARCHAR,
  feature VARCHAR,
  value VARCHAR,
  log_theta DOUBLE
);
