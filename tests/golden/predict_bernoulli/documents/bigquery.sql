  SELECT DISTINCT
    doc_id
  FROM (
    SELECT
      `doc_id` AS doc_id,
      CAST(`word` AS STRING) AS word,
      CAST(`count` AS FLOAT64) AS count
    FROM `tokens` AS s
  ) AS s
