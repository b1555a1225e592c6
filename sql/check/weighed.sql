-- Whether the weights leave a document to learn from: the labeled documents ($labels: doc_id,
-- label, weight, each sample weight times its class's weight) and those that weigh more than 0.
-- None that weighs more than 0 is a model of 0 documents (every prior 0/0), which training
-- refuses.
SELECT
  COUNT(*) AS n_docs,
  SUM(CASE WHEN l.weight > 0 THEN 1 ELSE 0 END) AS weighed
FROM $labels AS l
