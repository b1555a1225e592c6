BEGIN;
@tables/create_models
@tables/create_classes
@tables/create_prior
@tables/create_tokenizers
@tables/create_calibration
@tables/create_gaussian_stats
@tables/create_gaussian_spread
@tables/create_gaussian
@tables/create_category_counts
@tables/create_category_log_theta
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
ANALYZE sqlnb_models;
COMMIT;
