CREATE TABLE IF NOT EXISTS sqlnb_functions (
  version Nullable(String),
  settings Nullable(String)
);
