-- The report's per-(document, class) scores over evaluation's labeled documents: the posterior
-- of every class (0 where it is undefined, as evaluation's p_true), whether the class is the
-- predicted one (rn = 1) and whether it is the true label (labels compared as text, as in
-- sql/evaluate/outcomes.sql). A true label the model never saw is true for no class.
SELECT
  p.doc_id AS doc_id,
  p.class_id AS class_id,
  c.label AS label,
  CAST(y.label AS VARCHAR) AS true_label,
  COALESCE(p.proba, CAST(0 AS DOUBLE)) AS proba,
  p.rn AS rn,
  CASE
    WHEN c.label = CAST(y.label AS VARCHAR) THEN CAST(1 AS DOUBLE)
    ELSE CAST(0 AS DOUBLE)
  END AS is_true
FROM $posterior AS p
JOIN $truth AS y
  ON y.doc_id = p.doc_id
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = p.class_id
