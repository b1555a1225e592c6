CREATE TABLE IF NOT EXISTS sqlnb_scoring (
  model TEXT,
  word TEXT,
  base BIGINT,
  w0 DOUBLE,
  w1 DOUBLE,
  w2 DOUBLE,
  w3 DOUBLE,
  w4 DOUBLE,
  w5 DOUBLE,
  w6 DOUBLE,
  w7 DOUBLE
);
