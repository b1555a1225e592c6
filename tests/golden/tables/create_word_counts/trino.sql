CREATE TABLE IF NOT EXISTS sqlnb_word_counts (
  model VARCHAR,
  class_id BIGINT,
  word VARCHAR,
  count DOUBLE
);
