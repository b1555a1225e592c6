CREATE TABLE IF NOT EXISTS sqlnb_tokenizers (
  model VARCHAR,
  settings VARCHAR,
  lowercase BOOLEAN,
  pattern VARCHAR,
  ngram_min BIGINT,
  ngram_max BIGINT
);
