INSERT OVERWRITE TABLE `sqlnb_doc_freq` PARTITION(model = 'spam\037merged') (
  word,
  df
)
SELECT
  NULL AS word,
  NULL AS df
WHERE
  FALSE;
