CREATE TABLE IF NOT EXISTS sqlnb_transform (
  model TEXT,
  word TEXT,
  idf DOUBLE,
  sublinear BOOLEAN,
  norm TEXT
);
