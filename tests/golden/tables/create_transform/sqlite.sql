CREATE TABLE IF NOT EXISTS sqlnb_transform (
  model TEXT,
  word TEXT,
  idf REAL,
  sublinear INTEGER,
  norm TEXT
);
