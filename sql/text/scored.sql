-- The tokens any text model scores, read from its data rather than its kind (for the SQL
-- functions that serve every text model): each document's known rows of a word added up (a
-- Bernoulli model then counts the word once, see sqlnb.kinds.wide.parts). Rows with count 0
-- add no word.
SELECT t.doc_id AS doc_id, t.word AS word, SUM(t.count) AS count
FROM $tokens AS t
WHERE t.count > 0
GROUP BY t.doc_id, t.word
