CREATE TABLE IF NOT EXISTS sqlnb_tokenizers (
  model TEXT,
  settings TEXT,
  lowercase BOOLEAN,
  pattern TEXT,
  ngram_min BIGINT,
  ngram_max BIGINT
);
