-- Tokenizing, step 4 for a model's input: one row per occurrence with count 1 (every kind sums
-- or groups its rows itself, so counting first would only cost a pass).
SELECT g.doc_id AS doc_id, g.word AS word, CAST(1 AS DOUBLE) AS count
FROM $grams AS g
