CREATE TABLE IF NOT EXISTS sqlnb_gaussian (
  model VARCHAR,
  class_id BIGINT,
  label VARCHAR,
  feature VARCHAR,
  mean DOUBLE,
  var DOUBLE
);
