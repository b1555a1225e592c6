-- Stop-word lists longer than scikit-learn's English one (sqlnb.tokenizer.INLINE words), one
-- row per word, keyed by the list's fingerprint (sqlnb.tokenizer.Tokenizer.list_key): a
-- tokenizer with such a list keeps out the words of its key (a join, not the words pasted into
-- the query). Written with every model trained or imported with the list; shared by the models
-- whose lists are equal.
CREATE TABLE IF NOT EXISTS sqlnb_stop_words (
  list VARCHAR,
  word VARCHAR
)
