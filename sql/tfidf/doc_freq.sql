-- The document frequency of each word: the labeled documents whose counts of it add up to more
-- than 0 (a document counts by its sample weight), the same words sql/multinomial/count.sql
-- counts.
INSERT INTO sqlnb_doc_freq (model, word, df)
SELECT $model AS model, t.word AS word, SUM(l.weight) AS df
FROM (
  SELECT x.doc_id AS doc_id, x.word AS word
  FROM $tokens AS x
  GROUP BY x.doc_id, x.word
  HAVING SUM(x.count) > 0
) AS t
JOIN $labels AS l
  ON l.doc_id = t.doc_id
GROUP BY t.word
