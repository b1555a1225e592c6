INSERT OVERWRITE TABLE `sqlnb_doc_count` PARTITION(model = 'spam\037merged') (
  n
)
SELECT
  NULL AS n
WHERE
  FALSE;
