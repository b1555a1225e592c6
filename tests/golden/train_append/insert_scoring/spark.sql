INSERT OVERWRITE TABLE `sqlnb_scoring` PARTITION(model = 'spam') (
  word,
  base,
  w0,
  w1,
  w2,
  w3,
  w4,
  w5,
  w6,
  w7
)
SELECT
  NULL AS word,
  NULL AS base,
  NULL AS w0,
  NULL AS w1,
  NULL AS w2,
  NULL AS w3,
  NULL AS w4,
  NULL AS w5,
  NULL AS w6,
  NULL AS w7
WHERE
  FALSE;
