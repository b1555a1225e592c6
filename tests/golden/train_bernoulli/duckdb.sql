BEGIN TRANSACTION;
@create_models
@create_classes
@create_prior
@create_tokenizers
@create_calibration
@create_word_counts
@create_doc_freq
@create_doc_count
@create_scoring
@create_base
@create_transform
@create_log_theta
@create_log_absent
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
@insert_word_counts
@insert_prior
@insert_scoring
@insert_base
@insert_models
COMMIT;
