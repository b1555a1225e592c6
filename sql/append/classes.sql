-- Appending: the classes of the model ($model) and of the new batch ($batch) merged under
-- $merged: documents add up per label, and class_id is renumbered in sorted label order
-- ($sort_key: g.label cast back to the labels' own type), so new classes keep the tie rule.
INSERT INTO sqlnb_classes (model, class_id, label, n_docs)
SELECT
  $merged AS model,
  DENSE_RANK() OVER (ORDER BY $sort_key) - 1 AS class_id,
  g.label AS label,
  g.n_docs AS n_docs
FROM (
  SELECT c.label AS label, SUM(c.n_docs) AS n_docs
  FROM sqlnb_classes AS c
  WHERE c.model = $model OR c.model = $batch
  GROUP BY c.label
) AS g
