-- Per window n of $windows and predicted label (as text) of $predictions (doc_id, label,
-- proba: predict's rows), the documents predict labels so.
SELECT
  w.n AS n,
  CAST(p.label AS VARCHAR) AS label,
  COUNT(*) AS documents
FROM $predictions AS p
JOIN $windows AS w
  ON w.doc_id = p.doc_id
GROUP BY w.n, CAST(p.label AS VARCHAR)
