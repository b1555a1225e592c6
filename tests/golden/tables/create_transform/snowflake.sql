CREATE TABLE IF NOT EXISTS sqlnb_transform (
  model VARCHAR,
  word VARCHAR,
  idf DOUBLE,
  sublinear BOOLEAN,
  norm VARCHAR
);
