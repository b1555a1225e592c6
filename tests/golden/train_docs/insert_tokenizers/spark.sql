INSERT OVERWRITE TABLE sqlnb_tokenizers PARTITION(model = 'spam') (
  settings,
  lowercase,
  pattern,
  ngram_min,
  ngram_max
)
SELECT
  o.settings,
  o.lowercase,
  o.pattern,
  o.ngram_min,
  o.ngram_max
FROM (
  SELECT
    'spam' AS model,
    '{"lowercase": true, "ngrams": [1, 2], "pattern": "[\\\\pL\\\\pN]+(?:\'[\\\\pL\\\\pN]+)*", "stop_words": []}' AS settings,
    TRUE AS lowercase,
    '[\\pL\\pN]+(?:\'[\\pL\\pN]+)*' AS pattern,
    1 AS ngram_min,
    2 AS ngram_max
) AS o;
