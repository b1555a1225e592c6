-- Explaining (text kinds): each known word's share of each class's joint log-likelihood in each
-- document: its summed count (with $binary, as Bernoulli scores it: 1, the word is present)
-- times the kind's $scores per (class_id, word): log theta (complement: its weight), Bernoulli
-- log theta - log(1 - theta). NULL is -infinity. The report shows the count too.
SELECT
  t.doc_id AS doc_id,
  s.class_id AS class_id,
  t.word AS feature,
  t.count AS count,
  CASE WHEN $binary THEN CAST(1 AS DOUBLE) ELSE t.count END * s.score AS score
FROM (
  SELECT x.doc_id AS doc_id, x.word AS word, SUM(x.count) AS count
  FROM $tokens AS x
  GROUP BY x.doc_id, x.word
  HAVING SUM(x.count) > 0
) AS t
JOIN $scores AS s
  ON s.word = t.word
