-- Tokenizing, step 2: stop words removed before n-grams are built ($kept: the token is none of
-- them), with the empty matches (as scikit-learn's CountVectorizer). The positions keep their
-- gaps: the n-grams (ngrams.sql) join each token to the next ones that remain, in the order of
-- the positions.
SELECT t.doc_id AS doc_id, t.token AS token, t.pos AS pos
FROM $matches AS t
WHERE $kept AND t.token <> ''
