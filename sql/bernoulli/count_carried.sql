-- Bernoulli sufficient statistics from tokens that carry their document's label and sample
-- weight (sqlnb_label, sqlnb_weight: see multinomial/count_carried.sql): per label and word the
-- weighted number of documents that contain the word (a document's rows of a word count once;
-- one document has one label and one weight, which the labels' check makes sure of), then
-- numbered by $classes (label as text, class_id).
INSERT INTO sqlnb_word_counts (model, class_id, word, count)
SELECT
  $model AS model,
  c.class_id AS class_id,
  g.word AS word,
  g.count AS count
FROM (
  SELECT t.label AS label, t.word AS word, SUM(t.weight) AS count
  FROM (
    SELECT DISTINCT
      x.doc_id AS doc_id,
      x.word AS word,
      x.sqlnb_label AS label,
      x.sqlnb_weight AS weight
    FROM $tokens AS x
    WHERE x.count > 0
  ) AS t
  GROUP BY t.label, t.word
) AS g
JOIN $classes AS c
  ON c.label = CAST(g.label AS VARCHAR)
