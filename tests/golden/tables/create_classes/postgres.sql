CREATE TABLE IF NOT EXISTS sqlnb_classes (
  model TEXT,
  class_id BIGINT,
  label TEXT,
  n_docs DOUBLE PRECISION
);
