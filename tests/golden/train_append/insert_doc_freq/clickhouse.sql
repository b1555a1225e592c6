INSERT INTO sqlnb_doc_freq (
  model,
  word,
  df
)
SELECT
  'spam\x1fmerged' AS model,
  d.word AS word,
  SUM(d.df) AS df
FROM sqlnb_doc_freq AS d
WHERE
  d.model = 'spam' OR d.model = 'spam\x1fbatch'
GROUP BY
  d.word;
