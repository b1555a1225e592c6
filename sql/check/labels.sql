-- What is wrong with a labels source (already distinct on (doc_id, label, weight)), counted in
-- one pass. A weight that is NULL, NaN, infinite or negative is refused.
SELECT
  COUNT(*) AS n_rows,
  COUNT(DISTINCT l.doc_id) AS n_docs,
  SUM(CASE WHEN l.doc_id IS NULL THEN 1 ELSE 0 END) AS null_doc,
  SUM(CASE WHEN l.label IS NULL THEN 1 ELSE 0 END) AS null_label,
  SUM(CASE WHEN l.weight * 0 = 0 AND l.weight >= 0 THEN 0 ELSE 1 END) AS bad_weight
FROM $labels AS l
