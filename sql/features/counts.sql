-- Per (word, label) over the labeled documents of $tokens ($labels: doc_id, label): the word's
-- summed count and the number of documents holding it. Rows with count 0 add no word; tokens of
-- unlabeled documents are not counted.
SELECT
  t.word AS word,
  CAST(l.label AS VARCHAR) AS label,
  SUM(t.count) AS observed,
  COUNT(DISTINCT t.doc_id) AS docs
FROM $tokens AS t
JOIN (SELECT DISTINCT d.doc_id AS doc_id, d.label AS label FROM $labels AS d) AS l
  ON l.doc_id = t.doc_id
WHERE t.count > 0
GROUP BY t.word, l.label
