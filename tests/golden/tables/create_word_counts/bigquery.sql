CREATE TABLE IF NOT EXISTS sqlnb_word_counts (
  model STRING,
  class_id INT64,
  word STRING,
  count FLOAT64
);
