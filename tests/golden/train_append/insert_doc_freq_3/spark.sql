INSERT INTO sqlnb_doc_freq (
  model,
  word,
  df
)
SELECT
  'spam\037merged' AS model,
  d.word AS word,
  SUM(d.df) AS df
FROM sqlnb_doc_freq AS d
WHERE
  d.model = 'spam' OR d.model = 'spam\037batch'
GROUP BY
  d.word;
