-- Stored counts (multinomial and complement models with a document transform): per word, the
-- number of training documents that contain it (each counted once, whatever its weight), for
-- the inverse document frequency. Only observed words are stored.
CREATE TABLE IF NOT EXISTS sqlnb_doc_freq (
  model VARCHAR,
  word VARCHAR,
  df DOUBLE
)
