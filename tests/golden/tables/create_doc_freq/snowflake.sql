CREATE TABLE IF NOT EXISTS sqlnb_doc_freq (
  model VARCHAR,
  word VARCHAR,
  df DOUBLE
);
