CREATE TABLE IF NOT EXISTS sqlnb_doc_count (
  model TEXT,
  n DOUBLE PRECISION
);
