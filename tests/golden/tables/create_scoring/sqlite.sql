CREATE TABLE IF NOT EXISTS sqlnb_scoring (
  model TEXT,
  word TEXT,
  base INTEGER,
  w0 REAL,
  w1 REAL,
  w2 REAL,
  w3 REAL,
  w4 REAL,
  w5 REAL,
  w6 REAL,
  w7 REAL
);
