-- Multinomial sufficient statistics: the summed count of each word in each class's documents
-- (each document's counts times its sample weight), counted by label, then numbered by
-- $classes (K rows joined to the counts, not to every token).
-- Tokens of unlabeled documents are not training data; rows with count 0 add no word.
-- In word order, where the engine stores rows as inserted (DuckDB: Dialect.ordered_inserts):
-- the pivot by word reads them in cache order.
INSERT INTO sqlnb_word_counts (model, class_id, word, count)
SELECT
  $model AS model,
  c.class_id AS class_id,
  g.word AS word,
  g.count AS count
FROM (
  SELECT l.label AS label, t.word AS word, SUM(t.count * l.weight) AS count
  FROM $tokens AS t
  JOIN $labels AS l
    ON l.doc_id = t.doc_id
  WHERE t.count > 0
  GROUP BY l.label, t.word
) AS g
JOIN $classes AS c
  ON c.label = g.label
ORDER BY g.word
