CREATE TABLE IF NOT EXISTS sqlnb_doc_count (
  model VARCHAR,
  n DOUBLE
);
