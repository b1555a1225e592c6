CREATE TABLE IF NOT EXISTS sqlnb_word_counts (
  model TEXT,
  class_id BIGINT,
  word TEXT,
  count DOUBLE PRECISION
);
