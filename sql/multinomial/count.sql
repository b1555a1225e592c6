-- Multinomial sufficient statistics: the summed count of each word in each class's documents
-- (each document's counts times its sample weight).
-- Tokens of unlabeled documents are not training data; rows with count 0 add no word.
INSERT INTO sqlnb_word_counts (model, class_id, word, count)
SELECT
  $model AS model,
  l.class_id AS class_id,
  t.word AS word,
  SUM(t.count * l.weight) AS count
FROM $tokens AS t
JOIN $labeled AS l
  ON l.doc_id = t.doc_id
WHERE t.count > 0
GROUP BY l.class_id, t.word
