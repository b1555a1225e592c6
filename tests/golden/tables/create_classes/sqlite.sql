CREATE TABLE IF NOT EXISTS sqlnb_classes (
  model TEXT,
  class_id INTEGER,
  label TEXT,
  n_docs REAL
);
