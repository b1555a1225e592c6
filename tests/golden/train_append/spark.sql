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
ALTER TABLE `sqlnb_classes`
DROP IF EXISTS   PARTITION(model = 'spam\037batch');
ALTER TABLE `sqlnb_word_counts`
DROP IF EXISTS   PARTITION(model = 'spam\037batch');
ALTER TABLE `sqlnb_doc_freq`
DROP IF EXISTS   PARTITION(model = 'spam\037batch');
ALTER TABLE `sqlnb_doc_count`
DROP IF EXISTS   PARTITION(model = 'spam\037batch');
ALTER TABLE `sqlnb_classes`
DROP IF EXISTS   PARTITION(model = 'spam\037merged');
ALTER TABLE `sqlnb_word_counts`
DROP IF EXISTS   PARTITION(model = 'spam\037merged');
ALTER TABLE `sqlnb_doc_freq`
DROP IF EXISTS   PARTITION(model = 'spam\037merged');
ALTER TABLE `sqlnb_doc_count`
DROP IF EXISTS   PARTITION(model = 'spam\037merged');
@insert_classes
@insert_word_counts
@insert_classes_2
@insert_word_counts_2
@insert_doc_freq
@insert_doc_count
ALTER TABLE `sqlnb_models`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_classes`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_word_counts`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_doc_freq`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_doc_count`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_prior`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_tokenizers`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_scoring`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_base`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_transform`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_classes`
DROP IF EXISTS   PARTITION(model = 'spam\037batch');
ALTER TABLE `sqlnb_word_counts`
DROP IF EXISTS   PARTITION(model = 'spam\037batch');
ALTER TABLE `sqlnb_doc_freq`
DROP IF EXISTS   PARTITION(model = 'spam\037batch');
ALTER TABLE `sqlnb_doc_count`
DROP IF EXISTS   PARTITION(model = 'spam\037batch');
@insert_classes_3
@insert_word_counts_3
@insert_doc_freq_2
@insert_doc_count_2
ALTER TABLE `sqlnb_classes`
DROP IF EXISTS   PARTITION(model = 'spam\037merged');
ALTER TABLE `sqlnb_word_counts`
DROP IF EXISTS   PARTITION(model = 'spam\037merged');
ALTER TABLE `sqlnb_doc_freq`
DROP IF EXISTS   PARTITION(model = 'spam\037merged');
ALTER TABLE `sqlnb_doc_count`
DROP IF EXISTS   PARTITION(model = 'spam\037merged');
@insert_prior
@insert_scoring
@insert_base
@insert_models
ALTER TABLE `sqlnb_calibration`
DROP IF EXISTS   PARTITION(model = 'spam');
