-- One pass over a labels source ($labels: every row, under sqlnb's names) for all that a
-- training checks and needs of it, one row per label (as text; in class order, the order of
-- the labels' own type): its rows; those with a NULL document id, a NULL label, or a sample
-- weight that is NULL, NaN, infinite or negative; its documents given another label or weight
-- too; its documents, those that weigh more than 0, and their summed sample weight (the
-- class's n_docs, which a training writes from this row without reading the labels again).
-- The rows are grouped by document and label first; a document's labels are counted over
-- those groups (MIN of a label would do, but PostgreSQL has no MIN of a boolean).
SELECT
  CAST(p.label AS VARCHAR) AS label_text,
  SUM(p.n_rows) AS n_rows,
  SUM(CASE WHEN p.doc_id IS NULL THEN p.n_rows ELSE 0 END) AS null_doc,
  SUM(p.null_label) AS null_label,
  SUM(p.bad_weight) AS bad_weight,
  SUM(
    CASE WHEN p.doc_id IS NOT NULL AND (p.n_labels > 1 OR p.lightest < p.heaviest) THEN 1 ELSE 0 END
  ) AS conflicts,
  COUNT(p.doc_id) AS n_docs,
  SUM(CASE WHEN p.doc_id IS NOT NULL AND p.heaviest > 0 THEN 1 ELSE 0 END) AS weighed,
  SUM(p.heaviest) AS weight
FROM (
  SELECT
    g.doc_id AS doc_id,
    g.label AS label,
    g.n_rows AS n_rows,
    g.null_label AS null_label,
    g.bad_weight AS bad_weight,
    g.lightest AS lightest,
    g.heaviest AS heaviest,
    COUNT(g.label) OVER (PARTITION BY g.doc_id) AS n_labels
  FROM (
    SELECT
      l.doc_id AS doc_id,
      l.label AS label,
      COUNT(*) AS n_rows,
      SUM(CASE WHEN l.label IS NULL THEN 1 ELSE 0 END) AS null_label,
      SUM(CASE WHEN l.weight * 0 = 0 AND l.weight >= 0 THEN 0 ELSE 1 END) AS bad_weight,
      MIN(l.weight) AS lightest,
      MAX(l.weight) AS heaviest
    FROM $labels AS l
    GROUP BY l.doc_id, l.label
  ) AS g
) AS p
GROUP BY p.label
ORDER BY p.label
