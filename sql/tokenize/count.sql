-- Tokenizing, step 4: a tokens table, (doc_id, word, count).
SELECT g.doc_id AS doc_id, g.word AS word, CAST(COUNT(*) AS DOUBLE) AS count
FROM $grams AS g
GROUP BY g.doc_id, g.word
