CREATE TABLE IF NOT EXISTS sqlnb_doc_count (
  model STRING,
  n FLOAT64
);
