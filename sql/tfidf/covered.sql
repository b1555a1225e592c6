-- The number of words of model $model that have no document frequency: a model with a
-- document transform scores only the words sqlnb_transform holds.
SELECT COUNT(*) AS uncovered
FROM sqlnb_word_counts AS w
LEFT JOIN sqlnb_doc_freq AS d
  ON d.model = w.model AND d.word = w.word
WHERE w.model = $model AND d.word IS NULL
