CREATE TABLE IF NOT EXISTS sqlnb_tokenizers (
  model TEXT,
  settings TEXT,
  lowercase INTEGER,
  pattern TEXT,
  ngram_min INTEGER,
  ngram_max INTEGER
);
