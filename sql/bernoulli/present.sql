-- The words a Bernoulli model scores: each word present in a document once, with a count of 1.
-- Present means a row with a positive count (counts are never negative, so duplicate rows that
-- add up to more than 0 have one); a document's duplicate rows of a word count once.
SELECT DISTINCT x.doc_id AS doc_id, x.word AS word, 1 AS count
FROM $tokens AS x
WHERE x.count > 0
