CREATE TABLE IF NOT EXISTS sqlnb_transform (
  model STRING,
  word STRING,
  idf FLOAT64,
  sublinear BOOL,
  norm STRING
);
