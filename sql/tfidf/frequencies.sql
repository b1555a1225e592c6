-- Per vocabulary word of model $model, as scikit-learn's TfidfTransformer: its inverse document
-- frequency from df (sqlnb_doc_freq) and n, the training documents (sqlnb_doc_count; for a
-- model stored before it, the classes' sum):
-- 'smooth' ln((1 + n) / (1 + df)) + 1 (as if one more document held every word), 'plain'
-- ln(n / df) + 1, else 1 ($idf). $sublinear and $norm are the model's other settings.
SELECT
  $model AS model,
  d.word AS word,
  CASE
    WHEN $idf = 'smooth' THEN LN((1 + n.n_docs) / (1 + d.df)) + 1
    WHEN $idf = 'plain' THEN LN(n.n_docs / d.df) + 1
    ELSE CAST(1 AS DOUBLE)
  END AS idf,
  $sublinear AS sublinear,
  $norm AS norm
FROM sqlnb_doc_freq AS d
CROSS JOIN (
  SELECT
    COALESCE(
      (SELECT MAX(k.n) FROM sqlnb_doc_count AS k WHERE k.model = $model),
      (SELECT SUM(c.n_docs) FROM sqlnb_classes AS c WHERE c.model = $model)
    ) AS n_docs
) AS n
WHERE d.model = $model
