-- Stored counts (Gaussian features): per (class, feature) the number of non-missing values, their
-- mean and m2, the sum of squared deviations from the mean (what Chan et al.'s update adds up).
CREATE TABLE IF NOT EXISTS sqlnb_gaussian_stats (
  model VARCHAR,
  class_id BIGINT,
  feature VARCHAR,
  n DOUBLE,
  mean DOUBLE,
  m2 DOUBLE
)
