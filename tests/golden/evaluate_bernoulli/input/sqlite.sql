  SELECT
    "doc_id" AS doc_id,
    CAST("word" AS TEXT) AS word,
    CAST("count" AS REAL) AS count
  FROM "tokens" AS s
