INSERT OVERWRITE TABLE `sqlnb_doc_count` PARTITION(model = 'spam') (
  n
)
SELECT
  NULL AS n
WHERE
  FALSE;
