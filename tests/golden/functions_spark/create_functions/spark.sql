CREATE TABLE IF NOT EXISTS sqlnb_functions (
  version STRING,
  settings STRING
);
