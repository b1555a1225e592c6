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
@tables/create_word_counts
CREATE INDEX IF NOT EXISTS sqlnb_word_counts_model ON sqlnb_word_counts(model);
@tables/create_doc_freq
CREATE INDEX IF NOT EXISTS sqlnb_doc_freq_model ON sqlnb_doc_freq(model);
@tables/create_doc_count
CREATE INDEX IF NOT EXISTS sqlnb_doc_count_model ON sqlnb_doc_count(model);
@tables/create_scoring
CREATE INDEX IF NOT EXISTS sqlnb_scoring_model ON sqlnb_scoring(model);
@tables/create_base
CREATE INDEX IF NOT EXISTS sqlnb_base_model ON sqlnb_base(model);
@tables/create_transform
CREATE INDEX IF NOT EXISTS sqlnb_transform_model ON sqlnb_transform(model);
@tables/create_log_theta
DELETE FROM "sqlnb_models"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_base"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_calibration"
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
@insert_doc_freq
ANALYZE sqlnb_doc_freq;
@insert_doc_count
ANALYZE sqlnb_doc_count;
@insert_word_counts
ANALYZE sqlnb_word_counts;
@train_bernoulli/insert_prior
ANALYZE sqlnb_prior;
@insert_transform
ANALYZE sqlnb_transform;
@insert_scoring
ANALYZE "sqlnb_scoring";
@insert_base
ANALYZE sqlnb_base;
@insert_models
@insert_tokenizers
ANALYZE sqlnb_tokenizers;
COMMIT;
