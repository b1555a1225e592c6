CREATE TABLE IF NOT EXISTS sqlnb_word_counts (
  model TEXT,
  class_id INTEGER,
  word TEXT,
  count REAL
);
