  SELECT
    "doc_id" AS doc_id,
    CAST("word" AS Nullable(String)) AS word,
    CAST("count" AS Nullable(Float64)) AS count
  FROM "tokens" AS s
