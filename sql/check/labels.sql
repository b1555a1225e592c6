-- What is wrong with a labels source (already distinct on (doc_id, label)), counted in one pass.
SELECT
  COUNT(*) AS n_rows,
  COUNT(DISTINCT l.doc_id) AS n_docs,
  SUM(CASE WHEN l.doc_id IS NULL THEN 1 ELSE 0 END) AS null_doc,
  SUM(CASE WHEN l.label IS NULL THEN 1 ELSE 0 END) AS null_label
FROM $labels AS l
