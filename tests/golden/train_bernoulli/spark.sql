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
ALTER TABLE `sqlnb_calibration`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_doc_count`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_doc_freq`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_tokenizers`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_transform`
DROP IF EXISTS   PARTITION(model = 'spam');
@insert_classes
@insert_word_counts
@insert_prior
@insert_scoring
@insert_base
@insert_models
