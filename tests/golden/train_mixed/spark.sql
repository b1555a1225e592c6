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
@insert_base
@train_bernoulli/insert_calibration
@train_bernoulli/insert_doc_count
@train_bernoulli/insert_doc_freq
ALTER TABLE `sqlnb_scoring`
DROP IF EXISTS   PARTITION(model = 'spam');
@train_bernoulli/insert_tokenizers
@train_bernoulli/insert_transform
@insert_word_counts
@insert_classes
@insert_gaussian_stats
@insert_gaussian_spread
@insert_category_counts
@train_bernoulli/insert_prior
@insert_gaussian
@insert_category_log_theta
@insert_models
