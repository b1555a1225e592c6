-- The tokens multinomial and complement models score: rows with a count of 0 add no word.
SELECT t.doc_id AS doc_id, t.word AS word, t.count AS count FROM $tokens AS t WHERE t.count > 0
