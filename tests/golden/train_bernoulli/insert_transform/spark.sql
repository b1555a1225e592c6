INSERT OVERWRITE TABLE `sqlnb_transform` PARTITION(model = 'spam') (
  word,
  idf,
  sublinear,
  norm
)
SELECT
  NULL AS word,
  NULL AS idf,
  NULL AS sublinear,
  NULL AS norm
WHERE
  FALSE;
