-- Multinomial sufficient statistics from tokens that carry their document's label and sample
-- weight (sqlnb_label, sqlnb_weight: a docs table's own, taken from its row while tokenizing;
-- see sqlnb/kinds/text.py): the summed count of each word per label, without a join back to
-- the documents, then numbered by $classes (label as text, class_id: those the labels' survey
-- read, sql/train/known_class.sql, or sql/input/text_classes.sql). Rows with count 0 add no
-- word; tokens of unlabeled documents find no class.
-- In word order, where the engine stores rows as inserted (DuckDB: Dialect.ordered_inserts):
-- the pivot by word reads them in cache order.
INSERT INTO sqlnb_word_counts (model, class_id, word, count)
SELECT
  $model AS model,
  c.class_id AS class_id,
  g.word AS word,
  g.count AS count
FROM (
  SELECT t.sqlnb_label AS label, t.word AS word, SUM(t.count * t.sqlnb_weight) AS count
  FROM $tokens AS t
  WHERE t.count > 0
  GROUP BY t.sqlnb_label, t.word
) AS g
JOIN $classes AS c
  ON c.label = CAST(g.label AS VARCHAR)
ORDER BY g.word
