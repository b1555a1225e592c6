CREATE TABLE IF NOT EXISTS sqlnb_functions (
  version TEXT,
  settings TEXT
);
