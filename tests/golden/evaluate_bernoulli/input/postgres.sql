  SELECT
    "doc_id" AS doc_id,
    CAST("word" AS TEXT) AS word,
    CAST("count" AS DOUBLE PRECISION) AS count
  FROM "tokens" AS s
