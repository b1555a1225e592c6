CREATE TABLE IF NOT EXISTS sqlnb_calibration (
  model TEXT,
  method TEXT,
  class_id BIGINT,
  lo DOUBLE,
  hi DOUBLE,
  a DOUBLE,
  b DOUBLE
);
