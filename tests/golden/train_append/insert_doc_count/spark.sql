INSERT OVERWRITE TABLE `sqlnb_doc_count` PARTITION(model = 'spam\037batch') (
  n
)
SELECT
  NULL AS n
WHERE
  FALSE;
