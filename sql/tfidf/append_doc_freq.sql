-- Appending: the documents containing each word, the model's and the new batch's added up.
INSERT INTO sqlnb_doc_freq (model, word, df)
SELECT $merged AS model, d.word AS word, SUM(d.df) AS df
FROM sqlnb_doc_freq AS d
WHERE d.model = $model OR d.model = $batch
GROUP BY d.word
