-- The catalog: one row per trained model. The model name is a value in every table, never an
-- identifier. params is JSON (hyperparameters and input settings); label_type is the SQL type
-- (DuckDB spelling) that predictions cast labels back to.
CREATE TABLE IF NOT EXISTS sqlnb_models (
  model VARCHAR,
  kind VARCHAR,
  params VARCHAR,
  label_type VARCHAR,
  n_docs DOUBLE,
  n_classes BIGINT,
  n_features BIGINT,
  trained_at TIMESTAMP,
  version VARCHAR
)
