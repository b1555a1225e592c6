CREATE TABLE IF NOT EXISTS sqlnb_tokenizers (
  model Nullable(String),
  settings Nullable(String),
  lowercase Nullable(Bool),
  pattern Nullable(String),
  ngram_min Nullable(Int64),
  ngram_max Nullable(Int64)
);
