-- Derived (Gaussian features): the mean and the (smoothed) variance per (class, feature).
CREATE TABLE IF NOT EXISTS sqlnb_gaussian (
  model VARCHAR,
  class_id BIGINT,
  label VARCHAR,
  feature VARCHAR,
  mean DOUBLE,
  var DOUBLE
)
