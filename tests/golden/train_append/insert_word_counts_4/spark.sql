INSERT INTO sqlnb_word_counts (
  model,
  class_id,
  word,
  count
)
SELECT
  'spam\037merged' AS model,
  m.class_id AS class_id,
  w.word AS word,
  SUM(w.count) AS count
FROM sqlnb_word_counts AS w
JOIN sqlnb_classes AS c
  ON c.model = w.model AND c.class_id = w.class_id
JOIN sqlnb_classes AS m
  ON m.model = 'spam\037merged' AND m.label = c.label
WHERE
  w.model = 'spam' OR w.model = 'spam\037batch'
GROUP BY
  m.class_id,
  w.word;
