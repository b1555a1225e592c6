-- What sqlnb's SQL functions (DuckDB's macros) were last written for: sqlnb's version and the
-- distinct tokenizers of the database's text models (sqlnb_tokenizers.settings), one row each.
-- A training rewrites the functions only when these change.
CREATE TABLE IF NOT EXISTS sqlnb_functions (
  version VARCHAR,
  settings VARCHAR
)
