-- What is wrong with a labels source, counted in one pass over its rows ($labels: every row,
-- under sqlnb's names): its rows, NULL document ids and labels, sample weights that are NULL,
-- NaN, infinite or negative, and the documents given two different labels (or weights).
SELECT
  COUNT(*) AS n_rows,
  SUM(CASE WHEN l.doc_id IS NULL THEN 1 ELSE 0 END) AS null_doc,
  SUM(CASE WHEN l.label IS NULL THEN 1 ELSE 0 END) AS null_label,
  SUM(CASE WHEN l.weight * 0 = 0 AND l.weight >= 0 THEN 0 ELSE 1 END) AS bad_weight,
  (
    SELECT COUNT(*)
    FROM (
      SELECT d.doc_id AS doc_id
      FROM $labels AS d
      WHERE d.doc_id IS NOT NULL
      GROUP BY d.doc_id
      HAVING COUNT(DISTINCT d.label) > 1 OR MIN(d.weight) < MAX(d.weight)
    ) AS x
  ) AS conflicts
FROM $labels AS l
