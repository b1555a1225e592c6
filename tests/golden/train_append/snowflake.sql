BEGIN TRANSACTION;
@tables/create_models
@tables/create_classes
@tables/create_prior
@tables/create_tokenizers
@tables/create_calibration
@tables/create_word_counts
@tables/create_doc_freq
@tables/create_doc_count
@tables/create_scoring
@tables/create_base
@tables/create_transform
@tables/create_log_theta
@tables/create_log_absent
DELETE FROM "sqlnb_classes"
WHERE
  model = 'spam\x1fbatch';
DELETE FROM "sqlnb_word_counts"
WHERE
  model = 'spam\x1fbatch';
DELETE FROM "sqlnb_doc_freq"
WHERE
  model = 'spam\x1fbatch';
DELETE FROM "sqlnb_doc_count"
WHERE
  model = 'spam\x1fbatch';
DELETE FROM "sqlnb_classes"
WHERE
  model = 'spam\x1fmerged';
DELETE FROM "sqlnb_word_counts"
WHERE
  model = 'spam\x1fmerged';
DELETE FROM "sqlnb_doc_freq"
WHERE
  model = 'spam\x1fmerged';
DELETE FROM "sqlnb_doc_count"
WHERE
  model = 'spam\x1fmerged';
@insert_classes
@insert_word_counts
@insert_classes_2
@insert_word_counts_2
@insert_doc_freq
@insert_doc_count
DELETE FROM "sqlnb_models"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_classes"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_word_counts"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_doc_freq"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_doc_count"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_prior"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_tokenizers"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_scoring"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_base"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_transform"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_classes"
WHERE
  model = 'spam\x1fbatch';
DELETE FROM "sqlnb_word_counts"
WHERE
  model = 'spam\x1fbatch';
DELETE FROM "sqlnb_doc_freq"
WHERE
  model = 'spam\x1fbatch';
DELETE FROM "sqlnb_doc_count"
WHERE
  model = 'spam\x1fbatch';
@insert_classes_3
@insert_word_counts_3
@insert_doc_freq_2
@insert_doc_count_2
DELETE FROM "sqlnb_classes"
WHERE
  model = 'spam\x1fmerged';
DELETE FROM "sqlnb_word_counts"
WHERE
  model = 'spam\x1fmerged';
DELETE FROM "sqlnb_doc_freq"
WHERE
  model = 'spam\x1fmerged';
DELETE FROM "sqlnb_doc_count"
WHERE
  model = 'spam\x1fmerged';
@train_bernoulli/insert_prior
@insert_scoring
@train_bernoulli/insert_base
@train_bernoulli/insert_models
DELETE FROM "sqlnb_calibration"
WHERE
  model = 'spam';
COMMIT;
