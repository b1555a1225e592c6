-- The class counts the weights are derived from, for a model with a document transform: the
-- stored counts, times the word's idf where the stored counts leave it out (--idf without
-- --doc-norm: $scaled), so that appending only adds counts up.
SELECT
  w.class_id AS class_id,
  w.word AS word,
  CASE WHEN $scaled THEN w.count * f.idf ELSE w.count END AS count
FROM sqlnb_word_counts AS w
JOIN sqlnb_transform AS f
  ON f.model = w.model AND f.word = w.word
WHERE w.model = $model
