-- A model without a document transform: its words as sql/tfidf/frequencies.sql gives them, each
-- count left as it is (so that the SQL functions score every text model alike).
SELECT
  $model AS model,
  w.word AS word,
  CAST(1 AS DOUBLE) AS idf,
  FALSE AS sublinear,
  CAST(NULL AS VARCHAR) AS norm
FROM sqlnb_word_counts AS w
WHERE w.model = $model
GROUP BY w.word
