DROP DICTIONARY IF EXISTS default.sqlnb_ch_words_dict;
DROP DICTIONARY IF EXISTS default.sqlnb_ch_weights_dict;
DROP DICTIONARY IF EXISTS default.sqlnb_ch_models_dict;
DROP TABLE IF EXISTS default.sqlnb_ch_words;
DROP TABLE IF EXISTS default.sqlnb_ch_weights;
DROP TABLE IF EXISTS default.sqlnb_ch_models;
@create_ch_words
@create_ch_weights
@create_ch_models
@create_ch_words_dict
@create_ch_weights_dict
@create_ch_models_dict
@classify
@proba
@create_functions
DELETE FROM sqlnb_functions
WHERE
  TRUE;
@insert_functions
