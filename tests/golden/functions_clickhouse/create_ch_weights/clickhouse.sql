-- Per key (a word's key + class_id, sqlnb_ch_words), the word's weight w and zero count z in
-- the class, and its idf (1 without a transform), with the model's name (for deleting; the
-- dictionary does not hold it): numbers, one row per key, where an array per word would be a
-- value the dictionary builds for each lookup (the functions took three times as long so).
CREATE TABLE IF NOT EXISTS "default".sqlnb_ch_weights (
  model String,
  key UInt64,
  w Float64,
  z Float64,
  idf Float64
) ENGINE = MergeTree ORDER BY (model, key);
