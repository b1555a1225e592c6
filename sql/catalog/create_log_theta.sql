-- Derived: log theta for every class and training word (dense: classes x vocabulary).
-- NULL means theta = 0 exactly (only with alpha = 0), i.e. log theta = -infinity.
CREATE TABLE IF NOT EXISTS sqlnb_log_theta (
  model VARCHAR,
  class_id BIGINT,
  label VARCHAR,
  word VARCHAR,
  log_theta DOUBLE
)
