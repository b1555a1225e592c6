-- The $tokens of the words model $model has: appending to a model whose words were selected
-- (train --select) keeps its words.
SELECT t.*
FROM $tokens AS t
WHERE t.word IN (SELECT w.word FROM sqlnb_word_counts AS w WHERE w.model = $model)
