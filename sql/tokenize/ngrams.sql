-- Tokenizing, step 3: the n-grams of one n, with window functions: $gram is the token joined by
-- one space to the next n - 1 tokens (LEAD), NULL where the document ends before.
SELECT g.doc_id AS doc_id, g.gram AS word
FROM (SELECT k.doc_id AS doc_id, $gram AS gram FROM $kept AS k) AS g
WHERE g.gram IS NOT NULL
