INSERT OVERWRITE TABLE sqlnb_doc_count PARTITION(model = 'spam') (
  n
)
SELECT
  o.n
FROM (
  SELECT
    'spam' AS model,
    CAST(COUNT(DISTINCT l.doc_id) AS DOUBLE) AS n
  FROM (
    SELECT DISTINCT
      `id` AS doc_id,
      `label` AS label,
      CAST(1 AS DOUBLE) AS weight
    FROM `emails` AS s
  ) AS l
) AS o;
