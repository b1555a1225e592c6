-- The tokens any text model scores, read from its data rather than its kind (for the SQL
-- functions that serve every text model): each document's known rows of a word added up, or
-- with the model's $presence (Bernoulli) the word once with count 1. Rows with count 0 add no
-- word.
SELECT
  t.doc_id AS doc_id,
  t.word AS word,
  CASE WHEN $presence THEN CAST(1 AS DOUBLE) ELSE SUM(t.count) END AS count
FROM $tokens AS t
WHERE t.count > 0
GROUP BY t.doc_id, t.word
