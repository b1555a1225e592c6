INSERT OVERWRITE TABLE `sqlnb_tokenizers` PARTITION(model = 'spam') (
  settings,
  lowercase,
  pattern,
  ngram_min,
  ngram_max
)
SELECT
  NULL AS settings,
  NULL AS lowercase,
  NULL AS pattern,
  NULL AS ngram_min,
  NULL AS ngram_max
WHERE
  FALSE;
