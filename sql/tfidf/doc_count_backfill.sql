-- A model with a document transform that an earlier sqlnb stored without its sqlnb_doc_count
-- row (it has sqlnb_doc_freq rows, which only such models have): its row, the training
-- documents as that sqlnb counted them (its classes' sums), so that the SQL functions, which
-- find a model's transform by that row, transform its documents.
INSERT INTO sqlnb_doc_count (model, n)
SELECT c.model AS model, SUM(c.n_docs) AS n
FROM sqlnb_classes AS c
WHERE c.model IN (SELECT f.model FROM sqlnb_doc_freq AS f)
  AND NOT c.model IN (SELECT d.model FROM sqlnb_doc_count AS d)
GROUP BY c.model
