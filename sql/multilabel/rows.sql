-- Multi-label models in the rows form of any model (Spark's SQL functions, PostgreSQL's
-- fallback: sqlnb/functions/rows.py), one row per document of $posterior (the flat posterior,
-- rn = 1 its label) and $binary (each label's binary probability: sql/multilabel/posterior.sql),
-- both of the model sqlnb_model: the model's stored threshold ($modes: sql/multilabel/
-- modes.sql; NULL for one label per document), its flat label and proba, labels $listed
-- (sql/multilabel/sorted.sql: those whose binary probability is at or above the threshold, in
-- class order, the labels' sorted order) and top, the largest binary probability: what the
-- step sql/multilabel/listed.sql reads. (The model in WHERE, not in ON: Spark refuses a
-- function's parameter in a join condition.)
SELECT
  p.doc_id AS doc_id,
  MAX(g.threshold) AS threshold,
  MAX(CASE WHEN p.rn = 1 THEN c.label END) AS label,
  MAX(CASE WHEN p.rn = 1 THEN p.proba END) AS proba,
  $listed AS labels,
  MAX(b.proba) AS top
FROM $posterior AS p
JOIN $binary AS b
  ON b.doc_id = p.doc_id AND b.class_id = p.class_id
JOIN sqlnb_classes AS c
  ON c.class_id = p.class_id
JOIN $modes AS g
  ON TRUE
WHERE c.model = sqlnb_model AND g.model = sqlnb_model
GROUP BY p.doc_id
