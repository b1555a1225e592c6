-- The model's sqlnb_transform rows: the words' idf and the document transform's settings.
INSERT INTO sqlnb_transform (model, word, idf, sublinear, norm)
SELECT $model AS model, f.word AS word, f.idf AS idf, f.sublinear AS sublinear, f.norm AS norm
FROM $frequencies AS f
WHERE f.model = $model
