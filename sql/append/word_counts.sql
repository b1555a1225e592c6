-- Appending: word counts of the model and the new batch added up per (label, word), under the
-- merged class numbering.
INSERT INTO sqlnb_word_counts (model, class_id, word, count)
SELECT
  $merged AS model,
  m.class_id AS class_id,
  w.word AS word,
  SUM(w.count) AS count
FROM sqlnb_word_counts AS w
JOIN sqlnb_classes AS c
  ON c.model = w.model AND c.class_id = w.class_id
JOIN sqlnb_classes AS m
  ON m.model = $merged AND m.label = c.label
WHERE w.model = $model OR w.model = $batch
GROUP BY m.class_id, w.word
