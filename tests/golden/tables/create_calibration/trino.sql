CREATE TABLE IF NOT EXISTS sqlnb_calibration (
  model VARCHAR,
  method VARCHAR,
  class_id BIGINT,
  lo DOUBLE,
  hi DOUBLE,
  a DOUBLE,
  b DOUBLE
);
