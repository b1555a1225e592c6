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
ALTER TABLE `sqlnb_base`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_calibration`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_doc_count`
DROP IF EXISTS   PARTITION(model = 'spam');
ALTER TABLE `sqlnb_doc_freq`
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
@insert_gaussian_stats
@insert_gaussian_spread
@insert_category_counts
@train_bernoulli/insert_prior
@insert_gaussian
@insert_category_log_theta
@insert_models
