-- Stored counts (Gaussian features): per feature, over every training row with a value, each
-- counted once whatever its weight: n, mean and m2. var_smoothing scales by the largest of these
-- variances, as scikit-learn's GaussianNB (np.var(X, axis=0), without the sample weights).
CREATE TABLE IF NOT EXISTS sqlnb_gaussian_spread (
  model VARCHAR,
  feature VARCHAR,
  n DOUBLE,
  mean DOUBLE,
  m2 DOUBLE
)
