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
ALTER TABLE `sqlnb_models`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_base`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_calibration`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_classes`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_doc_count`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_doc_freq`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_prior`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_scoring`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_tokenizers`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_transform`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_word_counts`
DROP IF EXISTS   PARTITION(model = 'spam');
@insert_classes
@insert_word_counts
@insert_prior
@insert_scoring
@insert_base
@insert_models
