-- The document frequency of each word: the labeled documents ($labels: doc_id, label, weight)
-- whose counts of it add up to more than 0, each counted once whatever its weight (as
-- scikit-learn's TfidfTransformer, which takes no sample weights), the same words
-- sql/multinomial/count.sql counts.
INSERT INTO sqlnb_doc_freq (model, word, df)
SELECT $model AS model, t.word AS word, CAST(COUNT(*) AS DOUBLE) AS df
FROM (
  SELECT x.doc_id AS doc_id, x.word AS word
  FROM $tokens AS x
  GROUP BY x.doc_id, x.word
  HAVING SUM(x.count) > 0
) AS t
WHERE t.doc_id IN (SELECT l.doc_id FROM $labels AS l)
GROUP BY t.word
