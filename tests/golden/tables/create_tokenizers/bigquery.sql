CREATE TABLE IF NOT EXISTS sqlnb_tokenizers (
  model STRING,
  settings STRING,
  lowercase BOOL,
  pattern STRING,
  ngram_min INT64,
  ngram_max INT64
);
