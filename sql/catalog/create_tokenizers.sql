-- Derived: the tokenizer of each model trained from raw text (from the catalog's params), for
-- SQL functions that classify text without sqlnb: settings is the tokenizer as canonical JSON
-- (sorted keys; stop words included), the other columns its parts. Models trained from a
-- tokens table have no row.
CREATE TABLE IF NOT EXISTS sqlnb_tokenizers (
  model VARCHAR,
  settings VARCHAR,
  lowercase BOOLEAN,
  pattern VARCHAR,
  ngram_min BIGINT,
  ngram_max BIGINT
)
