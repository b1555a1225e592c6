  SELECT
    `doc_id` AS doc_id,
    CAST(`word` AS STRING) AS word,
    CAST(`count` AS DOUBLE) AS count
  FROM `tokens` AS s
