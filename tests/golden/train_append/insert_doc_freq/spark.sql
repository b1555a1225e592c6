INSERT OVERWRITE TABLE `sqlnb_doc_freq` PARTITION(model = 'spam\037batch') (
  word,
  df
)
SELECT
  NULL AS word,
  NULL AS df
WHERE
  FALSE;
