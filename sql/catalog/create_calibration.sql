-- Stored: a model's calibration (sqlnb calibrate), rows per class_id. method 'temperature': a is
-- T (every class); 'sigmoid': a, b of p -> 1 / (1 + exp(a p + b)) (for two classes, the
-- second class only); 'isotonic': on lo <= p < hi, p -> a + b (p - lo). lo = -1 and hi = 2
-- where one row covers every probability.
CREATE TABLE IF NOT EXISTS sqlnb_calibration (
  model VARCHAR,
  method VARCHAR,
  class_id BIGINT,
  lo DOUBLE,
  hi DOUBLE,
  a DOUBLE,
  b DOUBLE
)
