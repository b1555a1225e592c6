CREATE TABLE IF NOT EXISTS sqlnb_word_counts (
  model Nullable(String),
  class_id Nullable(Int64),
  word Nullable(String),
  count Nullable(Float64)
);
