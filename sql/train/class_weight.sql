-- The labeled documents (doc_id, label, weight) with each sample weight times its class's
-- weight, $factor: an expression over k.n_k (the class's documents), t.n (all documents) and
-- t.n_classes, or over l.label (a weight given per label).
SELECT
  l.doc_id AS doc_id,
  l.label AS label,
  l.weight * CAST($factor AS DOUBLE) AS weight
FROM $labels AS l
JOIN (SELECT k.label AS label, COUNT(*) AS n_k FROM $labels AS k GROUP BY k.label) AS k
  ON k.label = l.label
CROSS JOIN (
  SELECT COUNT(*) AS n, COUNT(DISTINCT a.label) AS n_classes FROM $labels AS a
) AS t
