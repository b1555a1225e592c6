CREATE TABLE IF NOT EXISTS sqlnb_classes (
  model STRING,
  class_id INT64,
  label STRING,
  n_docs FLOAT64
);
