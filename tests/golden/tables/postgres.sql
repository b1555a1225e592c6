@create_models
CREATE INDEX IF NOT EXISTS sqlnb_models_model ON sqlnb_models(model);
@create_classes
CREATE INDEX IF NOT EXISTS sqlnb_classes_model ON sqlnb_classes(model);
@create_prior
CREATE INDEX IF NOT EXISTS sqlnb_prior_model ON sqlnb_prior(model);
@create_tokenizers
CREATE INDEX IF NOT EXISTS sqlnb_tokenizers_model ON sqlnb_tokenizers(model);
@create_calibration
CREATE INDEX IF NOT EXISTS sqlnb_calibration_model ON sqlnb_calibration(model);
@create_word_counts
CREATE INDEX IF NOT EXISTS sqlnb_word_counts_model ON sqlnb_word_counts(model);
@create_doc_freq
CREATE INDEX IF NOT EXISTS sqlnb_doc_freq_model ON sqlnb_doc_freq(model);
@create_doc_count
CREATE INDEX IF NOT EXISTS sqlnb_doc_count_model ON sqlnb_doc_count(model);
@create_scoring
CREATE INDEX IF NOT EXISTS sqlnb_scoring_model ON sqlnb_scoring(model);
@create_base
CREATE INDEX IF NOT EXISTS sqlnb_base_model ON sqlnb_base(model);
@create_transform
CREATE INDEX IF NOT EXISTS sqlnb_transform_model ON sqlnb_transform(model);
@create_log_theta
@create_log_absent
@create_gaussian_stats
CREATE INDEX IF NOT EXISTS sqlnb_gaussian_stats_model ON sqlnb_gaussian_stats(model);
@create_gaussian_spread
CREATE INDEX IF NOT EXISTS sqlnb_gaussian_spread_model ON sqlnb_gaussian_spread(model);
@create_gaussian
CREATE INDEX IF NOT EXISTS sqlnb_gaussian_model ON sqlnb_gaussian(model);
@create_category_counts
CREATE INDEX IF NOT EXISTS sqlnb_category_counts_model ON sqlnb_category_counts(model);
@create_category_log_theta
CREATE INDEX IF NOT EXISTS sqlnb_category_log_theta_model ON sqlnb_category_log_theta(model);
