-- Bernoulli sufficient statistics: per (class, word) the number of the class's documents that
-- contain the word, weighted (duplicate rows of a document add up first; a total count of 0 is
-- absence).
INSERT INTO sqlnb_word_counts (model, class_id, word, count)
SELECT
  $model AS model,
  l.class_id AS class_id,
  t.word AS word,
  SUM(l.weight) AS count
FROM (
  SELECT doc_id, word FROM $tokens AS x GROUP BY doc_id, word HAVING SUM(count) > 0
) AS t
JOIN $labeled AS l
  ON l.doc_id = t.doc_id
GROUP BY l.class_id, t.word
