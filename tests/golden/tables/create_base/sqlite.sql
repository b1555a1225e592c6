CREATE TABLE IF NOT EXISTS sqlnb_base (
  model TEXT,
  class_id INTEGER,
  score REAL,
  n_zero INTEGER,
  presence INTEGER
);
