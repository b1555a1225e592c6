-- Tokenizing, step 2: stop words removed before n-grams are built ($kept: the token is none of
-- them), positions renumbered so that the n-grams join the tokens that remain (as
-- scikit-learn's CountVectorizer).
SELECT
  t.doc_id AS doc_id,
  t.token AS token,
  ROW_NUMBER() OVER (PARTITION BY t.doc_id ORDER BY t.pos) AS pos
FROM $matches AS t
WHERE $kept AND t.token <> ''
