CREATE TABLE IF NOT EXISTS sqlnb_doc_freq (
  model TEXT,
  word TEXT,
  df DOUBLE PRECISION
);
