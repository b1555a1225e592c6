CREATE TABLE IF NOT EXISTS sqlnb_transform (
  model TEXT,
  word TEXT,
  idf DOUBLE PRECISION,
  sublinear BOOLEAN,
  norm TEXT
);
