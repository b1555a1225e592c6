-- The kept versions of every model (sqlnb versions): one row per version of model `name`,
-- numbered 1, 2, ... and never reused (a dropped version leaves its row under the key
-- `name` || chr(31) || 'dropped' until a higher one is dropped). `model` is where the
-- version's rows are: the model's own name for the current version, a key no model name may
-- hold (`name` || chr(31) || 'v' || version) for the earlier ones. command: train, append,
-- retune, calibrate or import; documents and words: the catalog's n_docs and n_features.
CREATE TABLE IF NOT EXISTS sqlnb_versions (
  model VARCHAR,
  name VARCHAR,
  version BIGINT,
  created TIMESTAMP,
  command VARCHAR,
  documents DOUBLE,
  words BIGINT
)
