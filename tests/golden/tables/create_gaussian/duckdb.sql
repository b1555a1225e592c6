CREATE TABLE IF NOT EXISTS sqlnb_gaussian (
  model TEXT,
  class_id BIGINT,
  label TEXT,
  feature TEXT,
  mean DOUBLE,
  var DOUBLE
);
