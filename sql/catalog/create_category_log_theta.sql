-- Derived (categorical features): log theta per (class, feature, training value).
-- NULL means theta = 0 exactly (only with alpha = 0), i.e. -infinity.
CREATE TABLE IF NOT EXISTS sqlnb_category_log_theta (
  model VARCHAR,
  class_id BIGINT,
  label VARCHAR,
  feature VARCHAR,
  value VARCHAR,
  log_theta DOUBLE
)
