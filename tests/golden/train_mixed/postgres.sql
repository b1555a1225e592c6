BEGIN;
@tables/create_models
CREATE INDEX IF NOT EXISTS sqlnb_models_model ON sqlnb_models(model);
@tables/create_classes
CREATE INDEX IF NOT EXISTS sqlnb_classes_model ON sqlnb_classes(model);
@tables/create_prior
CREATE INDEX IF NOT EXISTS sqlnb_prior_model ON sqlnb_prior(model);
@tables/create_tokenizers
CREATE INDEX IF NOT EXISTS sqlnb_tokenizers_model ON sqlnb_tokenizers(model);
@tables/create_calibration
CREATE INDEX IF NOT EXISTS sqlnb_calibration_model ON sqlnb_calibration(model);
@tables/create_gaussian_stats
CREATE INDEX IF NOT EXISTS sqlnb_gaussian_stats_model ON sqlnb_gaussian_stats(model);
@tables/create_gaussian_spread
CREATE INDEX IF NOT EXISTS sqlnb_gaussian_spread_model ON sqlnb_gaussian_spread(model);
@tables/create_gaussian
CREATE INDEX IF NOT EXISTS sqlnb_gaussian_model ON sqlnb_gaussian(model);
@tables/create_category_counts
CREATE INDEX IF NOT EXISTS sqlnb_category_counts_model ON sqlnb_category_counts(model);
@tables/create_category_log_theta
CREATE INDEX IF NOT EXISTS sqlnb_category_log_theta_model ON sqlnb_category_log_theta(model);
DELETE FROM "sqlnb_models"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_base"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_calibration"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_category_counts"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_category_log_theta"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_classes"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_doc_count"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_doc_freq"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_gaussian"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_gaussian_spread"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_gaussian_stats"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_prior"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_scoring"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_tokenizers"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_transform"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_word_counts"
WHERE
  model = 'spam';
@insert_classes
ANALYZE sqlnb_classes;
@insert_gaussian_stats
ANALYZE "sqlnb_gaussian_stats";
@insert_gaussian_spread
ANALYZE "sqlnb_gaussian_spread";
@insert_category_counts
ANALYZE sqlnb_category_counts;
@train_bernoulli/insert_prior
ANALYZE sqlnb_prior;
@insert_gaussian
ANALYZE sqlnb_gaussian;
@insert_category_log_theta
ANALYZE sqlnb_category_log_theta;
@insert_models
COMMIT;
