-- Bernoulli sufficient statistics: per (class, word) the number of the class's documents that
-- contain the word, weighted. A document contains a word when one of its rows of it has a positive
-- count (counts are never negative); duplicate rows count once. Counted by label, then numbered
-- by $classes.
INSERT INTO sqlnb_word_counts (model, class_id, word, count)
SELECT
  $model AS model,
  c.class_id AS class_id,
  g.word AS word,
  g.count AS count
FROM (
  SELECT l.label AS label, t.word AS word, SUM(l.weight) AS count
  FROM (SELECT DISTINCT x.doc_id AS doc_id, x.word AS word FROM $tokens AS x WHERE x.count > 0) AS t
  JOIN $labels AS l
    ON l.doc_id = t.doc_id
  GROUP BY l.label, t.word
) AS g
JOIN $classes AS c
  ON c.label = g.label
