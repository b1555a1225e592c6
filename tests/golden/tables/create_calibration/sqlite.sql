CREATE TABLE IF NOT EXISTS sqlnb_calibration (
  model TEXT,
  method TEXT,
  class_id INTEGER,
  lo REAL,
  hi REAL,
  a REAL,
  b REAL
);
