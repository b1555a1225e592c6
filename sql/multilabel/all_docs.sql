-- The training documents of a multi-label model (sql/multilabel/n_docs.sql's rows, summed).
SELECT SUM(k.count) AS n_all
FROM sqlnb_word_counts AS k
WHERE k.model = $model AND k.class_id = -1 AND k.word IS NULL
