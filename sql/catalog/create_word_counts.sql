-- Stored counts: per (class, word) the summed token count (multinomial, complement) or the
-- number of documents containing the word (Bernoulli). Only observed pairs are stored.
CREATE TABLE IF NOT EXISTS sqlnb_word_counts (
  model VARCHAR,
  class_id BIGINT,
  word VARCHAR,
  count DOUBLE
)
