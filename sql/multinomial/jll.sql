-- Multinomial joint log-likelihood of every (document, class):
-- log prior + sum over the document's known words of count * log theta.
-- Words outside the vocabulary are ignored; a document with no known word gets the prior.
-- NULL means -infinity: a zero prior, or a known word whose theta is 0 in that class.
SELECT
  d.doc_id AS doc_id,
  p.class_id AS class_id,
  CASE
    WHEN p.log_prior IS NULL OR COALESCE(s.n_zero, 0) > 0 THEN NULL
    ELSE p.log_prior + COALESCE(s.score, 0)
  END AS jll
FROM $documents AS d
CROSS JOIN (
  SELECT class_id, log_prior FROM sqlnb_prior WHERE model = $model
) AS p
LEFT JOIN (
  SELECT
    t.doc_id AS doc_id,
    lt.class_id AS class_id,
    SUM(t.count * lt.log_theta) AS score,
    SUM(CASE WHEN lt.log_theta IS NULL THEN 1 ELSE 0 END) AS n_zero
  FROM $tokens AS t
  JOIN sqlnb_log_theta AS lt
    ON lt.word = t.word
  WHERE lt.model = $model AND t.count > 0
  GROUP BY t.doc_id, lt.class_id
) AS s
  ON s.doc_id = d.doc_id AND s.class_id = p.class_id
