-- Tokenizing unigrams, steps 2 and 3 at once (no n-grams, so no positions): the matches that
-- are not stop words ($kept: a condition on m.token, TRUE without stop words).
SELECT m.doc_id AS doc_id, m.token AS word
FROM $matches AS m
WHERE m.token <> '' AND $kept
