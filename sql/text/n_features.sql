-- The vocabulary size of a text model: its distinct training words.
SELECT COUNT(DISTINCT w.word) AS n_features FROM sqlnb_word_counts AS w WHERE w.model = $model
