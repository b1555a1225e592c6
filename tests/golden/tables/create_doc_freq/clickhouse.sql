CREATE TABLE IF NOT EXISTS sqlnb_doc_freq (
  model Nullable(String),
  word Nullable(String),
  df Nullable(Float64)
);
