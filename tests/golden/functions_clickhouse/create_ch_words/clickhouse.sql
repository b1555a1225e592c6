-- The rows ClickHouse's SQL functions read a text model's words from, through the dictionaries
-- of dictionaries.sql.in (ClickHouse's functions take no subquery): per (model, word) its key
-- (see weights.sql.in).
CREATE TABLE IF NOT EXISTS "default".sqlnb_ch_words (
  model String,
  word String,
  key UInt64
) ENGINE = MergeTree ORDER BY (model, word);
