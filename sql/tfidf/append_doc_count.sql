-- Appending to a model with a document transform (only its batches count documents): the
-- training documents, the model's and the new batch's added up. A model stored before
-- sqlnb_doc_count counted its documents by its classes' sums.
INSERT INTO sqlnb_doc_count (model, n)
SELECT
  $merged AS model,
  b.n + COALESCE(
    (SELECT SUM(d.n) FROM sqlnb_doc_count AS d WHERE d.model = $model),
    (SELECT SUM(c.n_docs) FROM sqlnb_classes AS c WHERE c.model = $model)
  ) AS n
FROM sqlnb_doc_count AS b
WHERE b.model = $batch
