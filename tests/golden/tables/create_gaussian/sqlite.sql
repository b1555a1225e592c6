CREATE TABLE IF NOT EXISTS sqlnb_gaussian (
  model TEXT,
  class_id INTEGER,
  label TEXT,
  feature TEXT,
  mean REAL,
  var REAL
);
