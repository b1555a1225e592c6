-- A posterior (doc_id, class_id, jll, log_proba, proba, rn) from per-class values >= 0
-- (doc_id, class_id, jll, value): proba = value / the document's sum, or 1/K where every value is
-- 0 (as scikit-learn's CalibratedClassifierCV); rn = 1 marks the most probable class, ties to
-- the first class in sorted order ($rank: sql/predict/argmax.sql of the proba). jll stays the
-- model's own.
SELECT
  n.doc_id AS doc_id,
  n.class_id AS class_id,
  n.jll AS jll,
  CASE WHEN n.proba > 0 THEN LN(n.proba) END AS log_proba,
  n.proba AS proba,
  $rank AS rn
FROM (
  SELECT
    v.doc_id AS doc_id,
    v.class_id AS class_id,
    v.jll AS jll,
    CASE
      WHEN SUM(v.value) OVER (PARTITION BY v.doc_id) > 0
        THEN v.value / SUM(v.value) OVER (PARTITION BY v.doc_id)
      ELSE CAST(1 AS DOUBLE) / COUNT(*) OVER (PARTITION BY v.doc_id)
    END AS proba
  FROM $values AS v
) AS n
