-- Every model's classes with their prior and training documents, in class order.
SELECT
  c.model AS model,
  c.class_id AS class_id,
  c.label AS label,
  c.n_docs AS n_docs,
  p.log_prior AS log_prior
FROM sqlnb_classes AS c
LEFT JOIN sqlnb_prior AS p
  ON p.model = c.model AND p.class_id = c.class_id
ORDER BY c.model, c.class_id
