CREATE TABLE IF NOT EXISTS sqlnb_models (
  model TEXT,
  kind TEXT,
  params TEXT,
  label_type TEXT,
  n_docs REAL,
  n_classes INTEGER,
  n_features INTEGER,
  trained_at TIMESTAMPNTZ,
  version TEXT
);
