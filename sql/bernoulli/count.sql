-- Bernoulli sufficient statistics: per (class, word) the number of the class's documents that
-- contain the word, weighted. A document contains a word when one of its rows of it has a positive
-- count (counts are never negative); duplicate rows count once.
INSERT INTO sqlnb_word_counts (model, class_id, word, count)
SELECT
  $model AS model,
  l.class_id AS class_id,
  t.word AS word,
  SUM(l.weight) AS count
FROM (SELECT DISTINCT x.doc_id AS doc_id, x.word AS word FROM $tokens AS x WHERE x.count > 0) AS t
JOIN $labeled AS l
  ON l.doc_id = t.doc_id
GROUP BY l.class_id, t.word
