-- The $top most confidently misclassified documents: the predicted class and its probability,
-- the true label, its class (NULL if the model never saw it) and its probability. Ties go to the
-- smaller doc_id.
SELECT
  w.doc_id AS doc_id,
  w.true_label AS true_label,
  w.predicted AS predicted,
  w.true_class_id AS true_class_id,
  w.predicted_class_id AS predicted_class_id,
  w.p_predicted AS p_predicted,
  w.p_true AS p_true
FROM (
  SELECT
    s.doc_id AS doc_id,
    s.true_label AS true_label,
    s.label AS predicted,
    t.class_id AS true_class_id,
    s.class_id AS predicted_class_id,
    s.proba AS p_predicted,
    COALESCE(t.proba, CAST(0 AS DOUBLE)) AS p_true,
    ROW_NUMBER() OVER (ORDER BY s.proba DESC, s.doc_id) AS pick
  FROM $scores AS s
  LEFT JOIN $scores AS t
    ON t.doc_id = s.doc_id AND t.is_true = 1
  WHERE s.rn = 1 AND s.is_true = 0
) AS w
WHERE w.pick <= $top
ORDER BY w.pick
