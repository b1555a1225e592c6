CREATE TABLE IF NOT EXISTS sqlnb_doc_count (
  model Nullable(String),
  n Nullable(Float64)
);
