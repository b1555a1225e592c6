-- The dictionaries over the tables, kept in memory (LIFETIME(0): reloaded by sqlnb after it
-- writes a model's rows, SYSTEM RELOAD DICTIONARY): a text's words are looked up by dictGet in
-- a function's lambdas; this one gives a word's key.
CREATE DICTIONARY IF NOT EXISTS "default".sqlnb_ch_words_dict (
  model String,
  word String,
  key UInt64
)
PRIMARY KEY model, word
SOURCE(CLICKHOUSE(TABLE 'sqlnb_ch_words' DB 'default'))
LAYOUT(COMPLEX_KEY_HASHED())
LIFETIME(0);
