-- Derived (Bernoulli): log(1 - theta) for every class and training word. NULL means 1 - theta = 0.
CREATE TABLE IF NOT EXISTS sqlnb_log_absent (
  model VARCHAR,
  class_id BIGINT,
  word VARCHAR,
  log_absent DOUBLE
)
