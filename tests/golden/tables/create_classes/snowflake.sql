CREATE TABLE IF NOT EXISTS sqlnb_classes (
  model VARCHAR,
  class_id BIGINT,
  label VARCHAR,
  n_docs DOUBLE
);
