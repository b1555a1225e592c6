-- Derived: the log prior of each class. NULL means a prior of exactly 0 (log 0 = -infinity).
CREATE TABLE IF NOT EXISTS sqlnb_prior (
  model VARCHAR,
  class_id BIGINT,
  label VARCHAR,
  log_prior DOUBLE
)
