-- The number of labeled documents (in $labels, doc_id, label, weight: each counted once, also
-- one without a word or of weight 0, and one that EM lists once per class), the n of the
-- inverse document frequency: the rows of scikit-learn's document-term matrix.
INSERT INTO sqlnb_doc_count (model, n)
SELECT $model AS model, CAST(COUNT(DISTINCT l.doc_id) AS DOUBLE) AS n
FROM $labels AS l
